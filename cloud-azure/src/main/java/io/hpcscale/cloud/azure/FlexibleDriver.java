package io.hpcscale.cloud.azure;

import com.azure.core.util.Context;
import com.azure.core.util.polling.SyncPoller;
import com.azure.resourcemanager.compute.fluent.VirtualMachinesClient;
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
 * number at once, since they are single-VM calls in this mode (Microsoft Learn, orchestration modes API
 * comparison); delete goes to the scale set in one call. Starts and stops are sent, not waited for: waiting for
 * each VM's operation, ten at a time, held a cycle for minutes at 100 VMs and spent the Get Operation budget; the
 * next listing shows what each did. Stopping with {@code stopAction = hibernate} goes through {@link Hibernation}.
 */
final class FlexibleDriver implements ScaleSetDriver {
    /** What a call sent but not waited for is, until a listing says. */
    static final String SENT = "sent; the next listing shows whether it took";

    private final AzureClients clients;
    private final AzurePoolSettings pool;
    private final LongOperations operations;
    private final String scaleSetId;
    private final int parallelism;
    private final CallGate gate;
    private final Hibernation hibernation;

    FlexibleDriver(AzureClients clients, AzurePoolSettings pool, LongOperations operations, String scaleSetId,
            int parallelism, CallGate gate) {
        this.clients = clients;
        this.pool = pool;
        this.operations = operations;
        this.scaleSetId = scaleSetId;
        this.parallelism = parallelism;
        this.gate = gate;
        this.hibernation = new Hibernation(pool, clients.pace().clock(), gate);
    }

    @Override
    public ArmListing.Result list() {
        return ArmListing.flexible(clients.pipeline(pool.subscriptionId()),
                clients.settings().resourceManagerEndpoint(), pool, scaleSetId);
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
                calls.add(executor.submit(() -> one(machines, call, vm, outcomes)));
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

    private void one(VirtualMachinesClient machines, PowerCall call, AzureVm vm, CallOutcomes outcomes) {
        String closed = gate.closedBecause();
        if (closed != null) {
            outcomes.failed(vm.vmName(), new NotCalled("not called: " + closed));
            return;
        }
        String rg = pool.resourceGroup();
        try {
            String sent = SENT;
            // Starting the poller sends the request and reads Azure's acceptance; polling it is left out.
            switch (call) {
                case START -> {
                    hibernation.started(vm.vmName());
                    machines.beginStart(rg, vm.vmName(), Context.NONE);
                }
                case DEALLOCATE -> machines.beginDeallocate(rg, vm.vmName(), null, Context.NONE);
                case HIBERNATE -> sent = hibernation.stop(machines, vm.vmName());
                case POWER_OFF -> machines.beginPowerOff(rg, vm.vmName(), false, Context.NONE);
                case DELETE -> throw new IllegalArgumentException("delete goes through the scale set");
            }
            outcomes.unfinished(vm.vmName(), sent);
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
