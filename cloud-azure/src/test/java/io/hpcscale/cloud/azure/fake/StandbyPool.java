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
 * <p>As Microsoft Learn's standby pools overview says: the pool keeps {@code maxReadyCapacity} VMs made from its
 * scale set's model in its {@code virtualMachineState}; when the scale set grows, VMs already in that state move into
 * it (and are started or resumed) and any others are created as usual; VMs still being made or moved to that state
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
    private final List<Instant> readyAt = new ArrayList<>();
    private int handedOut;

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

    /** Applies a PUT: VMs are added or dropped to the new capacity, and all of them made again on a new state. */
    synchronized void apply(String location, Map<String, String> tags, String scaleSetId, String vmState,
            long maxReady, long minReady, Instant now, Duration makeTime) {
        boolean newState = this.vmState != null && !this.vmState.equalsIgnoreCase(vmState);
        this.location = location;
        this.tags = Map.copyOf(tags);
        this.scaleSetId = scaleSetId;
        this.vmState = vmState;
        this.maxReady = maxReady;
        this.minReady = minReady;
        if (newState) {
            readyAt.replaceAll(t -> now.plus(makeTime));
        }
        while (readyAt.size() > maxReady) {
            readyAt.remove(readyAt.size() - 1);
        }
        while (readyAt.size() < maxReady) {
            readyAt.add(now.plus(makeTime));
        }
    }

    /** Takes a ready VM for a scale-out, if it has one, and asks for another in its place. */
    synchronized boolean handOut(Instant now, Duration makeTime) {
        for (int i = 0; i < readyAt.size(); i++) {
            if (!now.isBefore(readyAt.get(i))) {
                readyAt.remove(i);
                readyAt.add(now.plus(makeTime));
                handedOut++;
                return true;
            }
        }
        return false;
    }

    /** The resource as GET shows it (the 2025-03-01 example's shape). */
    synchronized ObjectNode toJson() {
        ObjectNode body = Json.object();
        body.put("id", id);
        body.put("name", name);
        body.put("type", "Microsoft.StandbyPool/standbyVirtualMachinePools");
        body.put("location", location);
        body.set("tags", Json.tags(tags));
        ObjectNode properties = body.putObject("properties");
        ObjectNode elasticity = properties.putObject("elasticityProfile");
        elasticity.put("maxReadyCapacity", maxReady);
        elasticity.put("minReadyCapacity", minReady);
        properties.put("virtualMachineState", vmState);
        properties.put("attachedVirtualMachineScaleSetId", scaleSetId);
        properties.put("provisioningState", "Succeeded");
        return body;
    }

    ResourceGroup resourceGroup() {
        return group;
    }
}
