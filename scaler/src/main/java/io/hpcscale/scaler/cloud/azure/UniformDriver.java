package io.hpcscale.scaler.cloud.azure;

import com.azure.core.util.Context;
import com.azure.core.util.polling.SyncPoller;
import com.azure.resourcemanager.compute.fluent.VirtualMachineScaleSetsClient;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetVMInstanceIDs;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetVMInstanceRequiredIDs;
import java.util.List;

/**
 * A Uniform scale set (what HPC pools with InfiniBand use): one paged listing with {@code $expand=instanceView},
 * and one call per action naming every instance id, waited for (one operation polled, whatever the batch).
 */
final class UniformDriver implements ScaleSetDriver {
    private final AzureClients clients;
    private final AzurePoolSettings pool;
    private final LongOperations operations;

    UniformDriver(AzureClients clients, AzurePoolSettings pool, LongOperations operations) {
        this.clients = clients;
        this.pool = pool;
        this.operations = operations;
    }

    @Override
    public ArmListing.Result list() {
        return ArmListing.uniform(clients.pipeline(pool.subscriptionId()), clients.settings().resourceManagerEndpoint(),
                pool);
    }

    @Override
    public void call(PowerCall call, List<AzureVm> vms, CallOutcomes outcomes) throws InterruptedException {
        List<String> ids = vms.stream().map(AzureVm::instanceId).toList();
        VirtualMachineScaleSetsClient scaleSets = clients.compute(pool.subscriptionId()).serviceClient()
                .getVirtualMachineScaleSets();
        String rg = pool.resourceGroup();
        String name = pool.scaleSet();
        try {
            VirtualMachineScaleSetVMInstanceIDs named = new VirtualMachineScaleSetVMInstanceIDs().withInstanceIds(ids);
            SyncPoller<?, ?> poller = switch (call) {
                case START -> scaleSets.beginStart(rg, name, named, Context.NONE);
                case DEALLOCATE -> scaleSets.beginDeallocate(rg, name, null, named, Context.NONE);
                case POWER_OFF -> scaleSets.beginPowerOff(rg, name, false, named, Context.NONE);
                case DELETE -> scaleSets.beginDeleteInstances(rg, name,
                        new VirtualMachineScaleSetVMInstanceRequiredIDs().withInstanceIds(ids), false, Context.NONE);
            };
            String unfinished = operations.await(poller);
            if (unfinished != null) {
                vms.forEach(vm -> outcomes.unfinished(vm.vmName(), unfinished));
            }
        } catch (RuntimeException e) {
            vms.forEach(vm -> outcomes.failed(vm.vmName(), e));
        }
    }
}
