package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One {@code Microsoft.StandbyPool/standbyVirtualMachinePools} resource and the VMs it holds.
 *
 * <p>As Microsoft Learn's standby pools overview says: the pool keeps VMs made from its scale set's model in its
 * {@code virtualMachineState}, as many as {@code maxReadyCapacity} less the scale set's instances but never fewer than
 * {@code minReadyCapacity} ("Standby pool size"); when the scale set grows, VMs already in that state move into it (and
 * are started or resumed) and any others are created as usual; VMs still being made or moved to that state
 * ("creating, failed or any other state than the expected state") are not handed out; the pool then refills. Here a
 * VM is ready once the fake's boot delay has passed since it was asked for or its state was changed.
 */
public final class StandbyPool {
    private final String id;
    private final String name;
    private final ResourceGroup group;
    private volatile String location;
    private volatile Map<String, String> tags;
    private volatile String scaleSetId;
    private volatile String vmState;
    private volatile long maxReady;
    private volatile long minReady;
    /** The properties as last put, those the fake does not read included: a GET gives them back. */
    private volatile ObjectNode properties = Json.object();
    private final List<Instant> readyAt = new ArrayList<>();
    private int handedOut;
    private volatile String provisioningState = "Succeeded";
    private volatile String health = "HealthState/healthy";
    private volatile String healthMessage = "The pool is healthy.";

    StandbyPool(ResourceGroup group, String name) {
        this.group = group;
        this.name = name;
        this.id = group.id() + "/providers/Microsoft.StandbyPool/standbyVirtualMachinePools/" + name;
    }

    public String id() {
        return id;
    }

    public String name() {
        return name;
    }

    public String vmState() {
        return vmState;
    }

    public long maxReadyCapacity() {
        return maxReady;
    }

    public String attachedScaleSetId() {
        return scaleSetId;
    }

    /** A copy of its properties as last put. */
    public ObjectNode properties() {
        return properties.deepCopy();
    }

    public Map<String, String> tags() {
        return tags;
    }

    /** How many of its VMs scale-outs have taken. */
    public synchronized int handedOut() {
        return handedOut;
    }

    /** Its VMs in the configured state, ready to be handed out. */
    public synchronized int ready(Instant now) {
        return (int) readyAt.stream().filter(t -> !now.isBefore(t)).count();
    }

    /**
     * Shows the pool in another provisioning state (Creating, Updating, Failed: standbyVMPool.tsp's ProvisioningState),
     * as Azure does while it applies a change or after one failed.
     */
    public void provisioningState(String state) {
        this.provisioningState = state;
    }

    /**
     * Shows the pool degraded in its runtime view, as Azure does when it cannot make its VMs ("resource constraints,
     * permission issues, or configuration problems such as extension errors": Microsoft Learn, "Understand the health
     * state of your standby pool"); the message is the fake's.
     */
    public void degraded(String message) {
        this.health = "HealthState/degraded";
        this.healthMessage = message;
    }

    /**
     * Applies a PUT: VMs are added or dropped to the new size. How Azure moves them to a new state is not documented:
     * here each is ready again the boot delay after the change.
     */
    synchronized void apply(String location, Map<String, String> tags, ObjectNode properties, int instances,
            Instant now, Duration makeTime) {
        String vmState = properties.path("virtualMachineState").asText("");
        String scaleSetId = properties.path("attachedVirtualMachineScaleSetId").asText("");
        long maxReady = properties.path("elasticityProfile").path("maxReadyCapacity").asLong(0);
        long minReady = properties.path("elasticityProfile").path("minReadyCapacity").asLong(0);
        boolean newState = this.vmState != null && !this.vmState.equalsIgnoreCase(vmState);
        this.properties = properties.deepCopy();
        this.properties.remove("provisioningState");
        this.location = location;
        this.tags = Map.copyOf(tags);
        this.scaleSetId = scaleSetId;
        this.vmState = vmState;
        this.maxReady = maxReady;
        this.minReady = minReady;
        this.provisioningState = "Succeeded";
        if (newState) {
            readyAt.replaceAll(t -> now.plus(makeTime));
        }
        resize(instances, now, makeTime);
    }

    /**
     * Takes a ready VM for a scale-out, if it has one, and refills to the size the grown scale set leaves.
     *
     * @param instances the scale set's instances before this one
     */
    synchronized boolean handOut(int instances, Instant now, Duration makeTime) {
        for (int i = 0; i < readyAt.size(); i++) {
            if (!now.isBefore(readyAt.get(i))) {
                readyAt.remove(i);
                handedOut++;
                resize(instances + 1, now, makeTime);
                return true;
            }
        }
        return false;
    }

    private void resize(int instances, Instant now, Duration makeTime) {
        long size = Math.max(minReady, maxReady - instances);
        while (readyAt.size() > size) {
            readyAt.remove(readyAt.size() - 1);
        }
        while (readyAt.size() < size) {
            readyAt.add(now.plus(makeTime));
        }
    }

    /** The resource as GET shows it (the 2025-03-01 example's shape). */
    synchronized ObjectNode toJson() {
        ObjectNode body = Json.object();
        body.put("id", id);
        body.put("name", name);
        body.put("type", "Microsoft.StandbyPool/standbyVirtualMachinePools");
        body.put("location", location);
        body.set("tags", Json.tags(tags));
        ObjectNode shown = properties.deepCopy();
        shown.put("provisioningState", provisioningState);
        body.set("properties", shown);
        return body;
    }

    /**
     * {@code .../runtimeViews/latest}: its VMs by state and its health under {@code properties}, as
     * standbyVirtualMachinePoolRuntimeView.tsp and the 2025-03-01 example have them; one summary without a zone for a
     * pool in none, as the REST example of Learn's health state page shows, states in lower case as there.
     */
    synchronized ObjectNode runtimeView(Instant now) {
        ObjectNode body = Json.object();
        body.put("id", id + "/runtimeViews/latest");
        body.put("name", "latest");
        body.put("type", "Microsoft.StandbyPool/standbyVirtualMachinePools/runtimeViews");
        ObjectNode properties = body.putObject("properties");
        ObjectNode summary = properties.putArray("instanceCountSummary").addObject();
        var counts = summary.putArray("instanceCountsByState");
        int ready = ready(now);
        counts.addObject().put("state", "creating").put("count", readyAt.size() - ready);
        counts.addObject().put("state", vmState.toLowerCase(java.util.Locale.ROOT)).put("count", ready);
        properties.put("provisioningState", provisioningState);
        properties.putObject("status").put("code", health).put("message", healthMessage);
        return body;
    }

    ResourceGroup resourceGroup() {
        return group;
    }
}
