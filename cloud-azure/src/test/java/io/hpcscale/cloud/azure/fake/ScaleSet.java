package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One scale set: its model as ARM stores it (what a PUT sent, less the read-only fields) and its instances.
 *
 * <p>The model is kept as JSON so a scale set created from another's model round-trips every field the SDK
 * sends, while the fake interprets only sku, location, mode, computer-name prefix, priority and eviction policy.
 * {@code sku.capacity} always equals the number of instances.
 */
public final class ScaleSet {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ResourceGroup group;
    private final String name;
    private final OrchestrationMode mode;
    private final Settings settings;
    private final String uniqueId = UUID.randomUUID().toString();
    private final Instant timeCreated;
    private final List<Instance> instances = new CopyOnWriteArrayList<>();
    private volatile ObjectNode model;
    private int nextInstanceId;

    ScaleSet(ResourceGroup group, String name, OrchestrationMode mode, ObjectNode model, Settings settings) {
        this.group = group;
        this.name = name;
        this.mode = mode;
        this.model = model;
        this.settings = settings;
        this.timeCreated = settings.clock().instant();
    }

    public String name() {
        return name;
    }

    public ResourceGroup resourceGroup() {
        return group;
    }

    public OrchestrationMode mode() {
        return mode;
    }

    public String id() {
        return group.id() + "/providers/Microsoft.Compute/virtualMachineScaleSets/" + name;
    }

    public String uniqueId() {
        return uniqueId;
    }

    public Instant timeCreated() {
        return timeCreated;
    }

    /** A copy: change the scale set through requests or {@link ArmState}. */
    public ObjectNode model() {
        return model.deepCopy();
    }

    public String location() {
        return model.path("location").asText(group.location());
    }

    public String skuName() {
        return model.path("sku").path("name").asText();
    }

    /** Instances asked for: an overprovisioning scale set's extras are not counted, as in its sku. */
    public int capacity() {
        return (int) instances.stream().filter(i -> i.goesAt() == null).count();
    }

    /**
     * Whether growth makes extra instances and deletes them: Uniform scale sets do unless
     * {@code properties.overprovision} is false (its default is true: Microsoft Learn, scale set design
     * overview); Flexible scale sets never do.
     */
    public boolean overprovisions() {
        return mode == OrchestrationMode.UNIFORM
            && model.path("properties").path("overprovision").asBoolean(true);
    }

    public String computerNamePrefix() {
        return profile().path("osProfile").path("computerNamePrefix").asText(name);
    }

    public String priority() {
        return profile().path("priority").asText("Regular");
    }

    /** Deallocate or Delete; meaningful for Spot only. */
    public String evictionPolicy() {
        return profile().path("evictionPolicy").asText("Deallocate");
    }

    /** Whether its VMs are made with hibernation enabled ({@code properties.additionalCapabilities}). */
    public boolean hibernationEnabled() {
        return model.path("properties").path("additionalCapabilities").path("hibernationEnabled").asBoolean(false);
    }

    public List<Instance> instances() {
        return List.copyOf(instances);
    }

    public Optional<Instance> instance(String instanceId) {
        return instances.stream().filter(i -> i.instanceId().equalsIgnoreCase(instanceId)).findFirst();
    }

    Clock clock() {
        return settings.clock();
    }

    Duration bootDelay() {
        return settings.bootDelay();
    }

    Duration stopDelay() {
        return settings.stopDelay();
    }

    Duration hibernationRefusedAfterStart() {
        return settings.hibernationRefusedAfterStart();
    }

    void replaceModel(ObjectNode newModel) {
        this.model = newModel;
        syncCapacity();
    }

    void patchModel(JsonNode patch) {
        ObjectNode copy = model.deepCopy();
        Json.merge(copy, patch);
        this.model = copy;
    }

    Instance addInstance(PowerState initial) {
        Instant now = clock().instant();
        Instance instance;
        if (mode == OrchestrationMode.UNIFORM) {
            int id = nextInstanceId++;
            instance = new Instance(this, Integer.toString(id), name + "_" + id,
                computerNamePrefix() + base36(id), now, initial);
        } else {
            String vmName = name + "_" + HexFormat.of().formatHex(randomBytes(4));
            instance = new Instance(this, vmName, vmName, computerNamePrefix() + randomSuffix(), now, initial);
        }
        instances.add(instance);
        syncCapacity();
        return instance;
    }

    /** A new instance boots like a started one: starting, then running after the boot delay. */
    Instance createInstance() {
        Instance instance = addInstance(PowerState.DEALLOCATED);
        instance.start(clock().instant(), settings.bootDelay());
        return instance;
    }

    void removeInstance(Instance instance) {
        instances.remove(instance);
        syncCapacity();
    }

    /** Azure's default scale-in policy removes the highest instance ids first: here, the newest. */
    List<Instance> newest(int count) {
        List<Instance> all = instances.stream().filter(i -> i.goesAt() == null).toList();
        return all.subList(Math.max(0, all.size() - count), all.size());
    }

    /** Removes the overprovisioned extras whose time has come. */
    void dropExtras(Instant now) {
        instances.removeIf(i -> i.goesAt() != null && !now.isBefore(i.goesAt()));
    }

    private void syncCapacity() {
        ObjectNode copy = model.deepCopy();
        copy.withObjectProperty("sku").put("capacity", capacity());
        this.model = copy;
    }

    private JsonNode profile() {
        return model.path("properties").path("virtualMachineProfile");
    }

    /** Six base-36 digits, zero padded, upper case as Microsoft documents ("nsgvmss00002D"). */
    static String base36(int id) {
        String digits = Integer.toString(id, 36).toUpperCase(Locale.ROOT);
        return "0".repeat(Math.max(0, 6 - digits.length())) + digits;
    }

    private static String randomSuffix() {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            sb.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    @Override
    public String toString() {
        return name + "(" + mode.armValue() + ", " + skuName() + " x" + capacity() + ")";
    }
}
