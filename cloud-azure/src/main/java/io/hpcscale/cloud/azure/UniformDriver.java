package io.hpcscale.cloud.azure;

import com.azure.core.management.exception.ManagementException;
import com.azure.core.util.Context;
import com.azure.core.util.polling.SyncPoller;
import com.azure.resourcemanager.compute.fluent.VirtualMachineScaleSetsClient;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetVMInstanceIDs;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetVMInstanceRequiredIDs;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Uniform scale set (what HPC pools with InfiniBand use): one paged listing with {@code $expand=instanceView},
 * and one call per action naming every instance id, waited for (one operation polled, whatever the batch). Azure
 * hibernates no Uniform scale set's instances (Microsoft Learn, hibernation overview: Uniform orchestration is not
 * supported; the deallocate call's {@code hibernate} is for Flexible only): asked to, it deallocates them.
 */
final class UniformDriver implements ScaleSetDriver {
    private static final Logger log = LoggerFactory.getLogger(UniformDriver.class);
    private static final Pattern NOT_ACTIVE = Pattern.compile(
            "instanceId (\\S+) is not an active Virtual Machine Scale Set VM instanceId");

    private final AzureClients clients;
    private final AzurePoolSettings pool;
    private final LongOperations operations;
    private volatile boolean toldCannotHibernate;

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
        List<AzureVm> asked = new ArrayList<>(vms);
        while (!asked.isEmpty()) {
            try {
                String unfinished = operations.await(begin(call, asked));
                if (unfinished != null) {
                    asked.forEach(vm -> outcomes.unfinished(vm.vmName(), unfinished));
                }
                return;
            } catch (RuntimeException e) {
                AzureVm vanished = vanished(e, asked);
                if (vanished == null) {
                    asked.forEach(vm -> outcomes.failed(vm.vmName(), e));
                    return;
                }
                // Azure refuses the whole batch for one id it no longer has (microsoft/onefuzz#2547): that one
                // is gone, the others are asked again at once.
                outcomes.failed(vanished.vmName(), e);
                asked.remove(vanished);
            }
        }
    }

    private SyncPoller<?, ?> begin(PowerCall call, List<AzureVm> vms) {
        if (call == PowerCall.HIBERNATE && !toldCannotHibernate) {
            toldCannotHibernate = true;
            log.warn("pool {}: stopAction = hibernate, but {} is a Uniform scale set, which Azure cannot hibernate: "
                    + "its instances are deallocated instead. Use a Flexible scale set, or set pool.{}.stopAction = "
                    + "deallocate", pool.pool(), pool.describe(), pool.pool());
        }
        List<String> ids = vms.stream().map(AzureVm::instanceId).toList();
        VirtualMachineScaleSetsClient scaleSets = clients.compute(pool.subscriptionId()).serviceClient()
                .getVirtualMachineScaleSets();
        String rg = pool.resourceGroup();
        String name = pool.scaleSet();
        VirtualMachineScaleSetVMInstanceIDs named = new VirtualMachineScaleSetVMInstanceIDs().withInstanceIds(ids);
        return switch (call) {
            case START -> scaleSets.beginStart(rg, name, named, Context.NONE);
            case DEALLOCATE, HIBERNATE -> scaleSets.beginDeallocate(rg, name, null, named, Context.NONE);
            case POWER_OFF -> scaleSets.beginPowerOff(rg, name, false, named, Context.NONE);
            case DELETE -> scaleSets.beginDeleteInstances(rg, name,
                    new VirtualMachineScaleSetVMInstanceRequiredIDs().withInstanceIds(ids), false, Context.NONE);
        };
    }

    /** The VM a refusal names as "not an active Virtual Machine Scale Set VM instanceId", if it is one asked. */
    private static AzureVm vanished(RuntimeException e, List<AzureVm> asked) {
        if (!(e instanceof ManagementException refusal) || refusal.getValue() == null
                || refusal.getValue().getMessage() == null) {
            return null;
        }
        Matcher m = NOT_ACTIVE.matcher(refusal.getValue().getMessage());
        if (!m.find()) {
            return null;
        }
        return asked.stream().filter(vm -> vm.instanceId().equals(m.group(1))).findFirst().orElse(null);
    }
}
