package io.hpcscale.cloud.azure;

import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetInner;
import com.azure.resourcemanager.compute.models.OrchestrationMode;
import com.azure.resourcemanager.compute.models.VirtualMachinePriorityTypes;

/**
 * What the provider reads of a scale set: how to drive it and what its instances are.
 *
 * @param id                   its resource id, which Flexible listings filter on
 * @param flexible             Flexible orchestration (VMs driven one by one); false for Uniform (batch calls)
 * @param capacity             its instance count, stopped ones included
 * @param spot                 Spot priority: Azure may take instances back at any time
 * @param overprovision        Azure makes more instances than asked when the scale set grows and deletes the
 *                             extras; Uniform scale sets do unless {@code properties.overprovision} is false (Microsoft
 *                             Learn, scale set design overview); Flexible ones never do
 * @param singlePlacementGroup its instances share one placement group (one InfiniBand fabric, at most 100 VMs);
 *                             null when the scale set does not say
 * @param evictionPolicy       a Spot scale set's eviction policy ({@code Deallocate}, {@code Delete}), or null
 * @param hibernationEnabled   {@code properties.additionalCapabilities.hibernationEnabled}: its VMs may be
 *                             hibernated; false when the scale set does not say
 * @param faultDomainCount     {@code properties.platformFaultDomainCount}, or null when the scale set does not say
 * @param ephemeralOsDisk      its VMs' OS disks are ephemeral ({@code osDisk.diffDiskSettings}), which cannot be
 *                             deallocated
 */
record ScaleSetModel(String id, boolean flexible, String vmSize, int capacity, String location, boolean spot,
        boolean overprovision, Boolean singlePlacementGroup, String evictionPolicy, boolean hibernationEnabled,
        Integer faultDomainCount, boolean ephemeralOsDisk) {

    static ScaleSetModel of(VirtualMachineScaleSetInner inner) {
        var profile = inner.virtualMachineProfile();
        boolean spot = profile != null && profile.priority() != null
                && VirtualMachinePriorityTypes.SPOT.equals(profile.priority());
        boolean flexible = OrchestrationMode.FLEXIBLE.equals(inner.orchestrationMode());
        int capacity = inner.sku() != null && inner.sku().capacity() != null ? inner.sku().capacity().intValue() : 0;
        String size = inner.sku() != null ? inner.sku().name() : null;
        boolean overprovision = !flexible && !Boolean.FALSE.equals(inner.overprovision());
        String eviction = profile != null && profile.evictionPolicy() != null ? profile.evictionPolicy().toString()
                : null;
        boolean hibernation = inner.additionalCapabilities() != null
                && Boolean.TRUE.equals(inner.additionalCapabilities().hibernationEnabled());
        boolean ephemeral = profile != null && profile.storageProfile() != null
                && profile.storageProfile().osDisk() != null
                && profile.storageProfile().osDisk().diffDiskSettings() != null;
        return new ScaleSetModel(inner.id(), flexible, size, capacity, inner.location(), spot, overprovision,
                inner.singlePlacementGroup(), eviction, hibernation, inner.platformFaultDomainCount(), ephemeral);
    }

    String mode() {
        return flexible ? "Flexible" : "Uniform";
    }
}
