package io.hpcscale.scaler.cloud.azure;

import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetInner;
import com.azure.resourcemanager.compute.models.OrchestrationMode;
import com.azure.resourcemanager.compute.models.VirtualMachinePriorityTypes;

/**
 * What the provider reads of a scale set: how to drive it and what its instances are.
 *
 * @param id         its resource id, which Flexible listings filter on
 * @param flexible   Flexible orchestration (VMs driven one by one); false for Uniform (batch calls)
 * @param capacity   its instance count, stopped ones included
 * @param spot       Spot priority: Azure may take instances back at any time
 */
record ScaleSetModel(String id, boolean flexible, String vmSize, int capacity, String location, boolean spot) {

    static ScaleSetModel of(VirtualMachineScaleSetInner inner) {
        var profile = inner.virtualMachineProfile();
        boolean spot = profile != null && profile.priority() != null
                && VirtualMachinePriorityTypes.SPOT.equals(profile.priority());
        boolean flexible = OrchestrationMode.FLEXIBLE.equals(inner.orchestrationMode());
        int capacity = inner.sku() != null && inner.sku().capacity() != null ? inner.sku().capacity().intValue() : 0;
        String size = inner.sku() != null ? inner.sku().name() : null;
        return new ScaleSetModel(inner.id(), flexible, size, capacity, inner.location(), spot);
    }

    String mode() {
        return flexible ? "Flexible" : "Uniform";
    }
}
