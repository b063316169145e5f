package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The subscription's contents. Request handlers run holding this object's lock, and so do the changes a test
 * makes behind the SDK's back (evictions, power states), so each request sees one consistent state.
 */
public final class ArmState {
    private final String subscriptionId;
    private final Settings settings;
    private final Map<String, ResourceGroup> groups = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    ArmState(String subscriptionId, Settings settings) {
        this.subscriptionId = subscriptionId;
        this.settings = settings;
    }

    public String subscriptionId() {
        return subscriptionId;
    }

    public synchronized ResourceGroup addResourceGroup(String name, String location, Map<String, String> tags) {
        ResourceGroup group = new ResourceGroup(subscriptionId, name, location, tags);
        groups.put(name, group);
        return group;
    }

    /** Adds a scale set with its instances already settled in the spec's state (no boot delay). */
    public synchronized ScaleSet add(ScaleSetSpec spec) {
        ResourceGroup group = requireGroup(spec.resourceGroup());
        ScaleSet scaleSet = new ScaleSet(group, spec.name(), spec.mode(), spec.toModel(group.location()), settings);
        for (int i = 0; i < spec.instances(); i++) {
            Instance instance = scaleSet.addInstance(spec.initialState());
            instance.tags().putAll(spec.instanceTags());
        }
        group.put(scaleSet);
        return scaleSet;
    }

    public synchronized Optional<ResourceGroup> resourceGroup(String name) {
        return Optional.ofNullable(groups.get(name));
    }

    public synchronized Optional<ScaleSet> scaleSet(String resourceGroup, String name) {
        return resourceGroup(resourceGroup).map(g -> g.scaleSet(name));
    }

    /** The instance, for a test to read; fails the test if it does not exist. */
    public synchronized Instance instance(String resourceGroup, String scaleSet, String instanceId) {
        return requireScaleSet(resourceGroup, scaleSet).instance(instanceId)
            .orElseThrow(() -> new IllegalArgumentException("no instance " + instanceId + " in " + scaleSet));
    }

    /**
     * A Spot eviction: with the Deallocate policy the instance is deallocated, with Delete it is gone (and the
     * capacity with it). No request is involved, and nothing in the model says it was an eviction.
     */
    public synchronized void evict(String resourceGroup, String scaleSet, String instanceId) {
        ScaleSet set = requireScaleSet(resourceGroup, scaleSet);
        Instance instance = instance(resourceGroup, scaleSet, instanceId);
        if ("Delete".equalsIgnoreCase(set.evictionPolicy())) {
            set.removeInstance(instance);
        } else {
            instance.settle(PowerState.DEALLOCATED);
        }
    }

    /** An instance in one of the states only a real listing shows; {@code code} for a failed one. */
    public synchronized void makeOdd(String resourceGroup, String scaleSet, String instanceId, Instance.Oddity oddity,
                                     String code) {
        instance(resourceGroup, scaleSet, instanceId).odd(oddity, code == null ? null
            : new Instance.Failure(code, "Provisioning failed. " + code + "."));
    }

    /** What the passing of time does by itself: overprovisioned extras are deleted when their time comes. */
    synchronized void tick() {
        java.time.Instant now = settings.clock().instant();
        for (ResourceGroup group : groups.values()) {
            group.scaleSets().forEach(scaleSet -> scaleSet.dropExtras(now));
        }
    }

    /** Deletes an instance behind the SDK's back, as the portal or another tool would. */
    public synchronized void deleteInstance(String resourceGroup, String scaleSet, String instanceId) {
        requireScaleSet(resourceGroup, scaleSet).removeInstance(instance(resourceGroup, scaleSet, instanceId));
    }

    /** Replaces a scale set's model behind the SDK's back, as an administrator editing it in the portal would. */
    public synchronized void replaceModel(String resourceGroup, String scaleSet, ObjectNode model) {
        requireScaleSet(resourceGroup, scaleSet).replaceModel(model);
    }

    public synchronized void setPowerState(String resourceGroup, String scaleSet, String instanceId,
                                           PowerState state) {
        instance(resourceGroup, scaleSet, instanceId).settle(state);
    }

    ResourceGroup requireGroup(String name) {
        ResourceGroup group = groups.get(name);
        if (group == null) {
            throw ArmException.resourceGroupNotFound(name);
        }
        return group;
    }

    ScaleSet requireScaleSet(String resourceGroup, String name) {
        ScaleSet scaleSet = requireGroup(resourceGroup).scaleSet(name);
        if (scaleSet == null) {
            throw ArmException.resourceNotFound("Microsoft.Compute/virtualMachineScaleSets", name, resourceGroup);
        }
        return scaleSet;
    }

    ScaleSet createScaleSet(ResourceGroup group, String name, OrchestrationMode mode, ObjectNode model) {
        ScaleSet scaleSet = new ScaleSet(group, name, mode, model, settings);
        group.put(scaleSet);
        return scaleSet;
    }

    void deleteScaleSet(ScaleSet scaleSet) {
        scaleSet.resourceGroup().remove(scaleSet);
    }

    /** Flexible VMs are ordinary VMs of the resource group; here they live with their scale set. */
    List<Instance> virtualMachines(ResourceGroup group) {
        List<Instance> vms = new ArrayList<>();
        for (ScaleSet scaleSet : group.scaleSets()) {
            if (scaleSet.mode() == OrchestrationMode.FLEXIBLE) {
                vms.addAll(scaleSet.instances());
            }
        }
        return vms;
    }

    Instance requireVirtualMachine(ResourceGroup group, String vmName) {
        return virtualMachines(group).stream().filter(vm -> vm.name().equalsIgnoreCase(vmName)).findFirst()
            .orElseThrow(() -> ArmException.resourceNotFound("Microsoft.Compute/virtualMachines", vmName,
                group.name()));
    }

    Settings settings() {
        return settings;
    }
}
