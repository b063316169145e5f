package io.hpcscale.cloud.azure;

import com.azure.core.util.Context;
import com.azure.core.util.polling.SyncPoller;
import com.azure.resourcemanager.compute.fluent.VirtualMachinesClient;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetVMInstanceRequiredIDs;
import io.hpcscale.scaler.cloud.CallGate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Flexible scale set (the default for new ones): its VMs are ordinary VMs. The listing is the resource group's
 * VMs filtered to the scale set, with instance view, in one paged call; start and stop go to each VM, a bounded
 * number at once, since they are single-VM calls in this mode (Microsoft Learn, orchestration modes API
 * comparison); delete goes to the scale set in one call. Starts and stops are sent, not waited for: waiting for
 * each VM's operation, ten at a time, held a cycle for minutes at 100 VMs and spent the Get Operation budget; the
 * next listing shows what each did.
 *
 * <p>A hibernation Azure refuses is a plain deallocation instead: the node is idle and drained either way, and only
 * its next start is a boot rather than a resume. Azure refuses at once a VM without hibernation enabled, one whose
 * hibernation extension failed, one that is not running ({@code OperationNotAllowed}), one that booted a moment
 * ago ({@code VMHibernateNotSupported}) and one its fabric failed ({@code VMHibernateFailed}) (Microsoft Learn,
 * "Troubleshooting VM hibernation", common error codes). A hibernation accepted and then failed leaves the VM
 * running, so a VM asked to stop again after one was sent is deallocated, not asked to hibernate again and again.
 */
final class FlexibleDriver implements ScaleSetDriver {
    private static final Logger log = LoggerFactory.getLogger(FlexibleDriver.class);
    private static final Set<String> HIBERNATION_REFUSALS = Set.of("operationnotallowed", "vmhibernatenotsupported",
            "vmhibernatefailed");
    /** What a call sent but not waited for is, until a listing says. */
    static final String SENT = "sent; the next listing shows whether it took";

    private final AzureClients clients;
    private final AzurePoolSettings pool;
    private final LongOperations operations;
    private final String scaleSetId;
    private final int parallelism;
    private final CallGate gate;
    /** VMs sent a hibernation since their last start: asked to stop again, they are deallocated. */
    private final Set<String> hibernationSent = ConcurrentHashMap.newKeySet();

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
            // Starting the poller sends the request and reads Azure's acceptance; polling it is left out.
            switch (call) {
                case START -> {
                    hibernationSent.remove(vm.vmName());
                    machines.beginStart(rg, vm.vmName(), Context.NONE);
                }
                case DEALLOCATE -> machines.beginDeallocate(rg, vm.vmName(), null, Context.NONE);
                case HIBERNATE -> hibernate(machines, vm);
                case POWER_OFF -> machines.beginPowerOff(rg, vm.vmName(), false, Context.NONE);
                case DELETE -> throw new IllegalArgumentException("delete goes through the scale set");
            }
            outcomes.unfinished(vm.vmName(), SENT);
        } catch (RuntimeException e) {
            outcomes.failed(vm.vmName(), e);
        }
    }

    private void hibernate(VirtualMachinesClient machines, AzureVm vm) {
        String rg = pool.resourceGroup();
        if (hibernationSent.contains(vm.vmName())) {
            log.warn("pool {}: VM {} is still running after it was sent a hibernation: deallocated instead (see "
                    + "its activity log for why the hibernation failed)", pool.pool(), vm.vmName());
            machines.beginDeallocate(rg, vm.vmName(), null, Context.NONE);
            return;
        }
        try {
            machines.beginDeallocate(rg, vm.vmName(), true, Context.NONE);
            hibernationSent.add(vm.vmName());
        } catch (RuntimeException e) {
            String code = ArmErrors.code(e);
            // A throttled call is no refusal: the scaler holds every pool back, and a second call would be throttled.
            if (code == null || !HIBERNATION_REFUSALS.contains(code.toLowerCase(Locale.ROOT))
                    || ArmErrors.throttled(e)) {
                throw e;
            }
            log.warn("pool {}: Azure would not hibernate VM {} ({}: {}): deallocated instead; its next start is a "
                    + "boot, not a resume (docs/running-on-azure.md, hibernation)", pool.pool(), vm.vmName(), code,
                    e.getMessage());
            machines.beginDeallocate(rg, vm.vmName(), null, Context.NONE);
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
