package io.hpcscale.cloud.azure;

import com.azure.resourcemanager.compute.fluent.VirtualMachineScaleSetsClient;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetInner;
import com.azure.resourcemanager.resources.models.Tags;
import com.azure.resourcemanager.resources.models.TagsPatchOperation;
import com.azure.resourcemanager.resources.models.TagsPatchResource;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CreateResult;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.GrowthAsked;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * A pool spread over several scale sets of one VM size ({@code pool.<name>.azure.vmsPerScaleSet}): its configured
 * scale set, and scale sets deployed from the administrator's template ({@link ScaleSetTemplate}) under new names
 * ({@code <scaleSet>-2}, {@code -3}, ...), found again in every listing by that name or their tag
 * {@code hpcscale-pool}, so none is ever forgotten, even one whose tagging a crash cut short.
 *
 * <p>Growth fills the open scale sets up to {@code vmsPerScaleSet} each. A scale set that stops growing (a capacity
 * error, or the capacity asked not reached within {@code sealAfter}) is sealed: tagged {@code hpcscale-sealed} (so a
 * restarted or second scaler knows) and reported in the create's result (recorded in the pool's state); the clock
 * of each growth is kept in the pool's state too ({@link #growing}, {@link #recall}). No growth
 * is asked of it again, its stopped instances are not offered for starting (starting them asks for the capacity
 * it lacks) but deleted, and once empty it is deleted too. What the open scale sets cannot take goes to a new one.
 */
public final class SpanningScaleSetProvider implements CloudProvider {
    static final String POOL_TAG = "hpcscale-pool";
    static final String TEMPLATE_TAG = "hpcscale-template";
    static final String SEALED_TAG = "hpcscale-sealed";

    private record Member(String name, AzureScaleSetProvider provider, boolean sealed) {
    }

    private final AzureClients clients;
    private final VmSizeCatalog sizes;
    private final AzurePoolSettings pool;
    private final CallGate gate;
    private final Clock clock;
    private final LongOperations operations;
    private final ScaleSetTemplate deployFrom;
    private final AzureScaleSetProvider template;
    private final Map<String, AzureScaleSetProvider> providers = new ConcurrentHashMap<>();
    /** By scale set, lower case: the growth clock, kept in the pool's state between cycles ({@link #growing}). */
    private final Map<String, GrowthAsked> growth = new ConcurrentHashMap<>();
    private volatile List<Member> members = List.of();
    private volatile List<String> groupScaleSets = List.of();
    private volatile List<Member> sealedAtListing = List.of();
    private volatile Map<String, Member> ownerOf = Map.of();
    private volatile Map<String, List<Instance>> listed = Map.of();

    SpanningScaleSetProvider(AzureClients clients, VmSizeCatalog sizes, AzurePoolSettings pool, CallGate gate,
            Clock clock) {
        this.clients = clients;
        this.sizes = sizes;
        this.pool = pool;
        this.gate = gate;
        this.clock = clock;
        this.operations = new LongOperations(clients.settings().operationTimeout(), gate, clients.pace());
        this.deployFrom = new ScaleSetTemplate(pool);
        this.template = provider(pool.scaleSet());
    }

    @Override
    public List<Instance> list() throws CloudException, InterruptedException {
        List<Member> found = findMembers();
        Map<String, Member> owners = new HashMap<>();
        Map<String, List<Instance>> byMember = new LinkedHashMap<>();
        List<Instance> all = new ArrayList<>();
        for (Member member : found) {
            List<Instance> instances = member.provider().list();
            byMember.put(key(member.name()), instances);
            GrowthAsked asked = growth.get(key(member.name()));
            if (asked != null && instances.stream().filter(i -> i.state().active()).count() >= asked.capacity()) {
                growth.remove(key(member.name()));
            }
            for (Instance instance : instances) {
                owners.put(instance.id(), member);
                if (!(member.sealed() && instance.state() == PowerState.STOPPED)) {
                    all.add(instance);
                }
            }
        }
        members = found;
        sealedAtListing = found.stream().filter(Member::sealed).toList();
        ownerOf = owners;
        listed = byMember;
        return all;
    }

    @Override
    public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
        InstanceResults.Builder results = new InstanceResults.Builder();
        for (Map.Entry<Member, List<Instance>> part : byMember(instances, results).entrySet()) {
            merge(results, part.getKey().provider().start(part.getValue()));
        }
        return results.build();
    }

    @Override
    public InstanceResults stop(List<Instance> instances, StopAction action)
            throws CloudException, InterruptedException {
        InstanceResults.Builder results = new InstanceResults.Builder();
        for (Map.Entry<Member, List<Instance>> part : byMember(instances, results).entrySet()) {
            merge(results, part.getKey().provider().stop(part.getValue(), action));
        }
        return results.build();
    }

    @Override
    public Map<String, GrowthAsked> growing() {
        return Map.copyOf(growth);
    }

    @Override
    public void recall(Map<String, GrowthAsked> growing) {
        growth.clear();
        growing.forEach((name, asked) -> growth.put(key(name), asked));
    }

    @Override
    public boolean canCreate() {
        return true;
    }

    /**
     * Grows the open scale sets, template first, then makes one new scale set for what they could not take. A
     * scale set refused for capacity, or still short of what it was asked for {@code sealAfter} ago, is sealed.
     */
    @Override
    public CreateResult create(int count) throws CloudException, InterruptedException {
        List<Instance> created = new ArrayList<>();
        List<CreateResult.Sealing> sealed = new ArrayList<>();
        CloudException failure = null;
        int remaining = count;
        for (Member member : members) {
            if (member.sealed() || remaining == 0) {
                continue;
            }
            List<Instance> instances = listed.getOrDefault(key(member.name()), List.of());
            String short_ = shortOfGrowth(member, instances);
            if (short_ != null) {
                sealed.add(seal(member.name(), short_));
                continue;
            }
            int room = pool.vmsPerScaleSet() - instances.size();
            if (room <= 0) {
                continue;
            }
            int asked = Math.min(room, remaining);
            growth.put(key(member.name()), new GrowthAsked(clock.instant(), instances.size() + asked));
            CreateResult result = member.provider().create(asked);
            // An instance a refused growth left behind is not running: it is no part of what was made.
            List<Instance> running = result.created().stream().filter(i -> i.state().active()).toList();
            created.addAll(running);
            remaining -= running.size();
            if (result.failure() instanceof CapacityException capacity) {
                sealed.add(seal(member.name(), capacity.getMessage()));
            } else if (result.failure() != null) {
                failure = result.failure();
                break;
            }
        }
        if (remaining > 0 && failure == null && gate.open()) {
            CreateResult made = newScaleSet(Math.min(remaining, pool.vmsPerScaleSet()));
            created.addAll(made.created());
            sealed.addAll(made.sealed());
            remaining -= made.created().size();
            failure = made.failure();
        }
        // What is still missing (one new scale set per cycle) is asked for again next cycle: no reason to back off.
        return new CreateResult(created, failure, sealed);
    }

    /**
     * Deletes the stopped instances of the scale sets that were sealed when the cycle listed them, and such a
     * scale set (never the pool's own) once empty, each on a listing of its own taken now and, for the scale set,
     * its capacity read back as 0: an instance started this cycle is not stopped any more, and a scale set sealed
     * this cycle is left for the next.
     */
    @Override
    public List<String> tidy() throws CloudException, InterruptedException {
        List<String> done = new ArrayList<>();
        for (Member member : sealedAtListing) {
            if (!gate.open()) {
                break;
            }
            // What is deleted rests on a listing made now, never on one planned from since.
            List<Instance> now = member.provider().listFresh();
            List<Instance> stopped = now.stream().filter(i -> i.state() == PowerState.STOPPED).toList();
            if (!stopped.isEmpty()) {
                InstanceResults results = member.provider().stop(stopped, StopAction.DELETE);
                done.add("asked to delete " + results.done().size() + " stopped instances of sealed scale set "
                        + member.name());
            }
            if (now.isEmpty() && !member.name().equalsIgnoreCase(pool.scaleSet()) && emptyModel(member.name())) {
                String unfinished = deleteScaleSet(member.name());
                done.add((unfinished == null ? "deleted" : "asked to delete (" + unfinished + ")")
                        + " sealed scale set " + member.name() + ", which is empty");
            }
        }
        return done;
    }

    /** Whether the scale set's own capacity is 0 too: a listing alone is not proof enough to delete it. */
    private boolean emptyModel(String name) throws CloudException {
        try {
            VirtualMachineScaleSetInner model = scaleSets().getByResourceGroup(pool.resourceGroup(), name);
            return model.sku() == null || model.sku().capacity() == null || model.sku().capacity() == 0;
        } catch (RuntimeException e) {
            throw ArmErrors.map("read scale set " + name + " before deleting it", e, 0);
        }
    }

    @Override
    public Optional<VmShape> vmShape() throws CloudException, InterruptedException {
        return template.vmShape();
    }

    @Override
    public boolean spot() {
        return template.spot();
    }

    /** As the pool's own scale set says, but in no one placement group: the pool spans several scale sets. */
    @Override
    public Map<String, Object> nodeFacts() {
        Map<String, Object> facts = new HashMap<>(template.nodeFacts());
        facts.put("placement_group", null);
        return facts;
    }

    /** The template and any {@code <template>-n}: known before the first listing, as messages may come first. */
    @Override
    public boolean manages(String resourceGroup, String scaleSet) {
        return pool.resourceGroup().equalsIgnoreCase(resourceGroup)
                && (scaleSet.equalsIgnoreCase(pool.scaleSet()) || scaleSet.toLowerCase(Locale.ROOT)
                        .matches(Pattern.quote(pool.scaleSet().toLowerCase(Locale.ROOT)) + "-[0-9]+"));
    }

    @Override
    public String account() {
        return template.account();
    }

    @Override
    public String describe() {
        return "scale sets " + pool.scaleSet() + " (and those deployed from its template) in resource group "
                + pool.resourceGroup();
    }

    /** The template and the scale sets tagged with this pool, in name order after the template. */
    private List<Member> findMembers() throws CloudException {
        List<VirtualMachineScaleSetInner> sets = new ArrayList<>();
        try {
            scaleSets().listByResourceGroup(pool.resourceGroup()).forEach(sets::add);
        } catch (RuntimeException e) {
            throw ArmErrors.map("list the scale sets of resource group " + pool.resourceGroup(), e, 0);
        }
        groupScaleSets = sets.stream().map(VirtualMachineScaleSetInner::name).toList();
        List<Member> found = new ArrayList<>();
        sets.stream().filter(s -> s.name().equalsIgnoreCase(pool.scaleSet())).findFirst()
                .ifPresent(s -> found.add(new Member(s.name(), template, tag(s, SEALED_TAG) != null)));
        sets.stream().filter(s -> !s.name().equalsIgnoreCase(pool.scaleSet()))
                .filter(s -> pool.pool().equals(tag(s, POOL_TAG)) || manages(pool.resourceGroup(), s.name()))
                .sorted((a, b) -> a.name().compareToIgnoreCase(b.name()))
                .forEach(s -> found.add(new Member(s.name(), provider(s.name()), tag(s, SEALED_TAG) != null)));
        if (found.isEmpty() || !found.get(0).provider().equals(template)) {
            throw new CloudException("scale set " + pool.scaleSet() + " of pool " + pool.pool() + " is not in resource "
                    + "group " + pool.resourceGroup() + ": it is the template the pool's other scale sets are made "
                    + "from");
        }
        return found;
    }

    /** Why a scale set asked to grow at least {@code sealAfter} ago is still short, or null. */
    private String shortOfGrowth(Member member, List<Instance> instances) {
        GrowthAsked asked = growth.get(key(member.name()));
        if (asked == null || asked.at().plus(pool.sealAfter()).isAfter(clock.instant())) {
            return null;
        }
        long active = instances.stream().filter(i -> i.state().active()).count();
        if (active >= asked.capacity()) {
            growth.remove(key(member.name()));
            return null;
        }
        return "asked at " + asked.at() + " for " + asked.capacity() + " instances, it runs " + active
                + " after " + pool.sealAfter().toMinutes() + " minutes (pool." + pool.pool() + ".azure.sealAfter)";
    }

    private CreateResult.Sealing seal(String name, String why) {
        String reason = why;
        TagsPatchResource merge = new TagsPatchResource().withOperation(TagsPatchOperation.MERGE)
                .withProperties(new Tags().withTags(Map.of(SEALED_TAG, clock.instant().toString())));
        try {
            clients.compute(pool.subscriptionId()).resourceManager().serviceClient().getTagOperations()
                    .updateAtScope(scaleSetId(name), merge);
        } catch (RuntimeException e) {
            reason = reason + " (its tag " + SEALED_TAG + " could not be written: " + ArmErrors.map("tag scale set "
                    + name, e, 0).getMessage() + "; sealed until this scaler restarts)";
        }
        List<Member> now = new ArrayList<>();
        for (Member member : members) {
            now.add(member.name().equalsIgnoreCase(name) ? new Member(member.name(), member.provider(), true)
                    : member);
        }
        members = now;
        return new CreateResult.Sealing(name, reason);
    }

    /**
     * A new scale set with {@code count} instances, deployed from the pool's template, then tagged with the pool
     * (for the administrator: it is found by its name too).
     */
    private CreateResult newScaleSet(int count) throws CloudException, InterruptedException {
        String name = nextName();
        String asked = "deploy scale set " + name + " with " + count + " instances from " + deployFrom.describe();
        CloudException failure = null;
        try {
            String unfinished = deployFrom.deploy(clients, operations, name, count);
            if (unfinished != null) {
                failure = new CloudException("cannot yet tell what came of: " + asked + ": " + unfinished);
            }
        } catch (CloudException e) {
            return new CreateResult(List.of(), new CloudException("cannot " + asked + ": " + e.getMessage()));
        } catch (RuntimeException e) {
            failure = ArmErrors.map(asked, e, 0);
        }
        if (failure == null) {
            failure = tagAsMember(name);
        }
        AzureScaleSetProvider made = provider(name);
        if (failure != null) {
            // The deployment may still be adding instances: nothing may be planned from a listing made now.
            made.grown();
        }
        List<Instance> created = new ArrayList<>();
        List<CreateResult.Sealing> sealed = new ArrayList<>();
        try {
            created.addAll(made.list().stream().filter(i -> i.state().active()).toList());
        } catch (CloudException e) {
            failure = failure != null ? failure : new CloudException(asked + " but its instances cannot be listed: "
                    + e.getMessage() + "; the next listing finds them");
        }
        List<Member> now = new ArrayList<>(members);
        now.add(new Member(name, made, false));
        members = now;
        growth.put(key(name), new GrowthAsked(clock.instant(), count));
        if (failure instanceof CapacityException capacity) {
            sealed.add(seal(name, capacity.getMessage()));
        }
        return new CreateResult(created, failure, sealed);
    }

    /** @return null when tagged, else why not (the scale set is still the pool's, by its name) */
    private CloudException tagAsMember(String name) {
        TagsPatchResource merge = new TagsPatchResource().withOperation(TagsPatchOperation.MERGE)
                .withProperties(new Tags().withTags(Map.of(POOL_TAG, pool.pool(), TEMPLATE_TAG, pool.scaleSet())));
        try {
            clients.compute(pool.subscriptionId()).resourceManager().serviceClient().getTagOperations()
                    .updateAtScope(scaleSetId(name), merge);
            return null;
        } catch (RuntimeException e) {
            return ArmErrors.map("tag scale set " + name + " with " + POOL_TAG + " = " + pool.pool(), e, 0);
        }
    }

    /** @return null when deleted, else why it is not known to be yet */
    private String deleteScaleSet(String name) throws CloudException, InterruptedException {
        String unfinished;
        try {
            unfinished = operations.await(scaleSets().beginDelete(pool.resourceGroup(), name));
        } catch (RuntimeException e) {
            throw ArmErrors.map("delete sealed scale set " + name, e, 0);
        }
        growth.remove(key(name));
        return unfinished;
    }

    /** The smallest {@code <template>-n}, n from 2, that no scale set of the resource group has, this pool's or not. */
    private String nextName() {
        for (int n = 2; ; n++) {
            String candidate = pool.scaleSet() + "-" + n;
            if (groupScaleSets.stream().noneMatch(name -> name.equalsIgnoreCase(candidate))
                    && members.stream().noneMatch(m -> m.name().equalsIgnoreCase(candidate))) {
                return candidate;
            }
        }
    }

    private Map<Member, List<Instance>> byMember(List<Instance> instances, InstanceResults.Builder results) {
        Map<Member, List<Instance>> parts = new LinkedHashMap<>();
        Map<String, Member> owners = ownerOf;
        for (Instance instance : instances) {
            Member owner = owners.get(instance.id());
            if (owner == null) {
                results.failed(instance, new CloudException("instance " + instance.id() + " is in none of the scale "
                        + "sets of pool " + pool.pool() + " as last listed"));
            } else {
                parts.computeIfAbsent(owner, m -> new ArrayList<>()).add(instance);
            }
        }
        return parts;
    }

    private static void merge(InstanceResults.Builder into, InstanceResults results) {
        results.done().forEach(into::done);
        results.failed().forEach(into::failed);
        results.unfinished().forEach(into::unfinished);
    }

    private AzureScaleSetProvider provider(String name) {
        return providers.computeIfAbsent(key(name), k -> new AzureScaleSetProvider(clients, sizes,
                pool.withScaleSet(name), gate));
    }

    private VirtualMachineScaleSetsClient scaleSets() {
        return clients.compute(pool.subscriptionId()).serviceClient().getVirtualMachineScaleSets();
    }

    private String scaleSetId(String name) {
        return "/subscriptions/" + pool.subscriptionId() + "/resourceGroups/" + pool.resourceGroup()
                + "/providers/Microsoft.Compute/virtualMachineScaleSets/" + name;
    }

    private static String tag(VirtualMachineScaleSetInner set, String name) {
        if (set.tags() == null) {
            return null;
        }
        return set.tags().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(Map.Entry::getValue).findFirst().orElse(null);
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
