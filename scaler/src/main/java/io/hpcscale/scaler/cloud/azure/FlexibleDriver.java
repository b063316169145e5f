package io.hpcscale.scaler.cloud.azure;

import com.azure.core.util.Context;
import com.azure.core.util.polling.SyncPoller;
import com.azure.resourcemanager.compute.fluent.VirtualMachinesClient;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineInner;
import com.azure.resourcemanager.compute.models.ExpandTypeForListVMs;
import com.azure.resourcemanager.compute.models.InstanceViewStatus;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetVMInstanceRequiredIDs;
import io.hpcscale.scaler.cloud.CallGate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Flexible scale set (the default for new ones): its VMs are ordinary VMs. The listing is the resource group's
 * VMs filtered to the scale set, with instance view, in one paged call; start and stop go to each VM, a bounded
 * number at once, since the scale-set calls with instance ids are not dependable in this mode; delete goes to the
 * scale set in one call.
 */
final class FlexibleDriver implements ScaleSetDriver {
    private final AzureClients clients;
    private final AzurePoolSettings pool;
    private final LongOperations operations;
    private final String scaleSetId;
    private final int parallelism;
    private final CallGate gate;

    FlexibleDriver(AzureClients clients, AzurePoolSettings pool, LongOperations operations, String scaleSetId,
            int parallelism, CallGate gate) {
        this.clients = clients;
        this.pool = pool;
        this.operations = operations;
        this.scaleSetId = scaleSetId;
        this.parallelism = parallelism;
        this.gate = gate;
    }

    @Override
    public List<AzureVm> list() {
        List<AzureVm> vms = new ArrayList<>();
        String filter = "'virtualMachineScaleSet/id' eq '" + scaleSetId + "'";
        for (VirtualMachineInner vm : clients.compute(pool.subscriptionId()).serviceClient().getVirtualMachines()
                .listByResourceGroup(pool.resourceGroup(), filter, ExpandTypeForListVMs.INSTANCE_VIEW,
                        Context.NONE)) {
            List<String> codes = vm.instanceView() == null || vm.instanceView().statuses() == null ? null
                    : vm.instanceView().statuses().stream().map(InstanceViewStatus::code).toList();
            String computerName = vm.osProfile() != null && vm.osProfile().computerName() != null
                    ? vm.osProfile().computerName()
                    : vm.instanceView() != null ? vm.instanceView().computerName() : null;
            vms.add(new AzureVm(vm.name(), vm.name(), computerName, vm.tags(), AzureVm.powerCode(codes),
                    vm.provisioningState()));
        }
        return vms;
    }

    @Override
    public void call(PowerCall call, List<AzureVm> vms, CallOutcomes outcomes) throws InterruptedException {
        if (call == PowerCall.DELETE) {
            deleteThroughScaleSet(vms, outcomes);
            return;
        }
        VirtualMachinesClient machines = clients.compute(pool.subscriptionId()).serviceClient().getVirtualMachines();
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(Math.min(parallelism, vms.size()), r -> {
            Thread t = new Thread(r, "azure-" + pool.pool() + "-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (AzureVm vm : vms) {
                calls.add(executor.submit(() -> {
                    one(machines, call, vm, outcomes);
                    return null;
                }));
            }
            for (Future<?> f : calls) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException("a per-VM call threw past its own handling", e.getCause());
                }
            }
        } finally {
            executor.shutdownNow();
        }
    }

    private void one(VirtualMachinesClient machines, PowerCall call, AzureVm vm, CallOutcomes outcomes)
            throws InterruptedException {
        String closed = gate.closedBecause();
        if (closed != null) {
            outcomes.failed(vm.vmName(), new NotCalled("not called: " + closed));
            return;
        }
        String rg = pool.resourceGroup();
        try {
            SyncPoller<?, ?> poller = switch (call) {
                case START -> machines.beginStart(rg, vm.vmName(), Context.NONE);
                case DEALLOCATE -> machines.beginDeallocate(rg, vm.vmName(), null, Context.NONE);
                case POWER_OFF -> machines.beginPowerOff(rg, vm.vmName(), false, Context.NONE);
                case DELETE -> throw new IllegalArgumentException("delete goes through the scale set");
            };
            String unfinished = operations.await(poller);
            if (unfinished != null) {
                outcomes.unfinished(vm.vmName(), unfinished);
            }
        } catch (RuntimeException e) {
            outcomes.failed(vm.vmName(), e);
        }
    }

    private void deleteThroughScaleSet(List<AzureVm> vms, CallOutcomes outcomes) throws InterruptedException {
        try {
            SyncPoller<?, ?> poller = clients.compute(pool.subscriptionId()).serviceClient()
                    .getVirtualMachineScaleSets().beginDeleteInstances(pool.resourceGroup(), pool.scaleSet(),
                            new VirtualMachineScaleSetVMInstanceRequiredIDs().withInstanceIds(
                                    vms.stream().map(AzureVm::vmName).toList()), false, Context.NONE);
            String unfinished = operations.await(poller);
            if (unfinished != null) {
                vms.forEach(vm -> outcomes.unfinished(vm.vmName(), unfinished));
            }
        } catch (RuntimeException e) {
            vms.forEach(vm -> outcomes.failed(vm.vmName(), e));
        }
    }

    /** A VM the call never reached because the scaler began shutting down or lost its lease first. */
    static final class NotCalled extends RuntimeException {
        NotCalled(String message) {
            super(message);
        }
    }
}
