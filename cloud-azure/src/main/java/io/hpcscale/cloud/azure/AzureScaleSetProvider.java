package io.hpcscale.cloud.azure;

import com.azure.core.util.Context;
import com.azure.core.util.polling.SyncPoller;
import com.azure.resourcemanager.compute.models.Sku;
import com.azure.resourcemanager.compute.models.VirtualMachineScaleSetUpdate;
import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CreateResult;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceFailure;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pool's Azure Virtual Machine Scale Set, Uniform or Flexible (read from the scale set on first use). An
 * instance's id is its VM name ({@code vmss_3}, {@code vmss_1a2b3c4d}), unique and what the portal shows; its node
 * is named by {@link NodeNaming}.
 *
 * <p>Requests per cycle: a paged listing (50 VMs a page) at most once per {@code azure.minListInterval} and only
 * while the subscription's Compute budget has room ({@link ScaleSetListing}, {@link ComputeBudget}); one call per
 * action for Uniform (every instance id in it), one per VM for Flexible starts and stops; a batch that fails is
 * read back with one more listing, so that what did change is recorded as done; with a standby pool, one read of it
 * and the scale set every ten minutes after the cycle's actions ({@link StandbyPoolKeeper}).
 */
public final class AzureScaleSetProvider implements CloudProvider {
    private static final Logger log = LoggerFactory.getLogger(AzureScaleSetProvider.class);

    private final AzureClients clients;
    private final VmSizeCatalog sizes;
    private final AzurePoolSettings pool;
    private final LongOperations operations;
    private final CallGate gate;
    private final ComputeBudget budget;
    private final ScaleSetListing listing;
    /** The pool's standby pool's keeper, or null when it has none. */
    private final StandbyPoolKeeper standby;
    private static final Duration SIZE_READ_RETRY = Duration.ofMinutes(10);

    private volatile ScaleSetModel model;
    private volatile Instant sizeReadFailedAt;
    private volatile ScaleSetDriver driver;
    private volatile int unnamedWarnedAbout;
    /** Why Azure will not make this VM size for this subscription: said instead of asking again. */
    private volatile CapacityException refusedForGood;

    AzureScaleSetProvider(AzureClients clients, VmSizeCatalog sizes, AzurePoolSettings pool, CallGate gate) {
        this.clients = clients;
        this.sizes = sizes;
        this.pool = pool;
        this.gate = gate;
        this.operations = new LongOperations(clients.settings().operationTimeout(), gate, clients.pace());
        this.budget = clients.budget(pool.subscriptionId());
        this.listing = new ScaleSetListing(clients.pace().clock(), clients.settings().minListInterval());
        this.standby = pool.standbyPool() == null ? null : new StandbyPoolKeeper(clients, pool);
    }

    /**
     * The last listing with what hpcscale asked since, or a fresh one when it is due and the budget has room. When
     * the budget has none, a listing that is still good is planned from; one made stale by growth is not, and the
     * instances are unknown until the budget allows a listing.
     */
    @Override
    public List<Instance> list() throws CloudException, InterruptedException {
        ScaleSetDriver d = driver();
        readSizeOnce();
        if (listing.due()) {
            int pages = listing.pages();
            Duration wait = budget.waitBeforeListing(pool.describe(), pages, listing.usable());
            if (wait.isZero()) {
                listNow(d);
            } else if (!listing.usable()) {
                throw new CloudException("cannot list " + describe() + " yet: " + ComputeBudget.why(pages, wait));
            } else {
                log.debug("pool={} plans from the listing of {}: {}", pool.pool(), listing.listedAt(),
                        wait.equals(ComputeBudget.TURN) ? "a scale set listed longer ago goes first"
                                : ComputeBudget.why(pages, wait));
            }
        }
        List<Instance> instances = new ArrayList<>();
        listing.states().forEach((vm, state) -> instances.add(instance(vm, state)));
        return instances;
    }

    /**
     * Reads the VM size's SKU (family, cores, InfiniBand) for {@link #nodeFacts}, once per process and region: the
     * catalog keeps it. A read that fails leaves them unknown and is tried again ten minutes later.
     */
    private void readSizeOnce() {
        ScaleSetModel m = model;
        Instant now = clients.pace().clock().instant();
        if (m == null || m.vmSize() == null || m.location() == null
                || sizes.known(pool.subscriptionId(), m.location(), m.vmSize()) != null
                || (sizeReadFailedAt != null && now.isBefore(sizeReadFailedAt.plus(SIZE_READ_RETRY)))) {
            return;
        }
        try {
            sizes.size(pool.subscriptionId(), m.location(), m.vmSize());
        } catch (RuntimeException e) {
            sizeReadFailedAt = now;
            log.warn("pool={} the VM sizes of region {} cannot be read ({}): its node's family, cores and InfiniBand "
                    + "are unknown to constraints until they can", pool.pool(), m.location(), e.getMessage());
        }
    }

    /** Lists the scale set now, spending the budget, and keeps what it shows. */
    private void listNow(ScaleSetDriver d) throws CloudException {
        ArmListing.Result result;
        try {
            result = d.list();
        } catch (RuntimeException e) {
            budget.listingFailed(pool.describe());
            throw ArmErrors.map("list the instances of " + pool.describe(), e, 0);
        }
        budget.spentOnListing(pool.describe(), result.pages());
        listing.listed(result.vms(), result.pages(), clients.pace().clock().instant());
        if (result.skippedWithoutName() != unnamedWarnedAbout) {
            unnamedWarnedAbout = result.skippedWithoutName();
            if (result.skippedWithoutName() > 0) {
                log.warn("pool={} the listing of {} shows {} VM(s) without a name, as Azure shows VMs being deleted; "
                        + "they are left out", pool.pool(), pool.describe(), result.skippedWithoutName());
            }
        }
    }

    private Instance instance(AzureVm vm, PowerState state) {
        InstanceFailure failure = vm.failure() == null ? null
                : new InstanceFailure(vm.failureCode(), vm.failureMessage(),
                        ArmErrors.isCapacity(vm.failureCode()));
        return new Instance(vm.vmName(), pool.nodeNaming().nodeName(vm), state, failure,
                vm.hibernated() && state == PowerState.STOPPED);
    }

    /**
     * A listing made now, whatever hpcscale's allowance says (its cost is owed), for a decision that must not rest
     * on an older one: what a sealed scale set still holds before its instances or itself are deleted.
     *
     * @throws CloudException when Azure reports the listing budget low, or the listing fails
     */
    List<Instance> listFresh() throws CloudException {
        Map<AzureVm, PowerState> states = listOwing(driver());
        if (states == null) {
            throw new CloudException("cannot list " + describe() + " now: Azure reports Compute's "
                    + "HighCostGetVMScaleSet budget low; the next listing in " + Durations.human(budget.waitForAzure()));
        }
        List<Instance> instances = new ArrayList<>();
        states.forEach((vm, state) -> instances.add(instance(vm, state)));
        return instances;
    }

    /**
     * A listing that must go out whatever hpcscale's allowance says (to see what a call or a growth did): its cost
     * is owed. Null, and nothing listed, while Azure reports the listing budget low.
     */
    private Map<AzureVm, PowerState> listOwing(ScaleSetDriver d) throws CloudException {
        if (!budget.waitForAzure().isZero()) {
            return null;
        }
        budget.owe(pool.describe(), listing.pages());
        listNow(d);
        return listing.states();
    }

    /** Instances were added by other means (a deployment): the last listing lacks them. */
    void grown() {
        listing.grew();
    }

    @Override
    public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
        CapacityException refused = refusedForGood;
        if (refused != null && !instances.isEmpty()) {
            return InstanceResults.allFailed(instances, refused);
        }
        return power(PowerCall.START, instances);
    }

    @Override
    public InstanceResults stop(List<Instance> instances, StopAction action)
            throws CloudException, InterruptedException {
        return power(PowerCall.of(action), instances);
    }

    private InstanceResults power(PowerCall call, List<Instance> instances)
            throws CloudException, InterruptedException {
        if (instances.isEmpty()) {
            return InstanceResults.allDone(List.of());
        }
        ScaleSetDriver d = driver();
        List<AzureVm> vms = instances.stream().map(this::vmOf).toList();
        CallOutcomes outcomes = new CallOutcomes();
        d.call(call, vms, outcomes);
        if (outcomes.anyFailed() && instances.size() > 1) {
            readBack(d, call, outcomes);
        }
        String asked = call.verb() + " " + (instances.size() == 1 ? "instance " + instances.get(0).id()
                : instances.size() + " instances") + " of " + pool.describe();
        int cores = model == null ? 0 : sizes.knownVcpus(pool.subscriptionId(), model.location(), model.vmSize());
        InstanceResults.Builder results = new InstanceResults.Builder();
        Map<RuntimeException, CloudException> mapped = new HashMap<>();
        List<String> sent = new ArrayList<>();
        List<String> finished = new ArrayList<>();
        for (Instance instance : instances) {
            RuntimeException failure = outcomes.failure(instance.id());
            String unfinished = outcomes.unfinishedBecause(instance.id());
            if (failure != null) {
                results.failed(instance, mapped.computeIfAbsent(failure, f -> permanence(f, ArmErrors.map(asked, f,
                        cores))));
            } else if (unfinished != null) {
                results.unfinished(instance, unfinished);
                sent.add(instance.id());
            } else {
                results.done(instance);
                finished.add(instance.id());
            }
        }
        listing.asked(call, sent, false);
        listing.asked(call, finished, true);
        return results.build();
    }

    /**
     * A {@code SkuNotAvailable} refusal is permanent when the subscription may not use the VM size anywhere in the
     * region (the resource SKU's location restriction, e.g. {@code NotAvailableForSubscription}): asking again
     * changes nothing, so the provider stops asking until the scaler restarts with another configuration.
     */
    private CloudException permanence(Throwable failure, CloudException mapped) {
        if (!(mapped instanceof CapacityException) || !"skunotavailable".equalsIgnoreCase(ArmErrors.code(failure))
                || model == null) {
            return mapped;
        }
        VmSizeCatalog.Size size;
        try {
            size = sizes.size(pool.subscriptionId(), model.location(), model.vmSize()).orElse(null);
        } catch (RuntimeException e) {
            return mapped;
        }
        if (size == null || size.restricted() == null) {
            return mapped;
        }
        CapacityException permanent = new CapacityException(mapped.getMessage() + "; the subscription may not use "
                + model.vmSize() + " (" + size.restricted() + "): hpcscale asks no more until the pool's scale set "
                + "has another VM size or the subscription is given access, and the scaler restarted", true);
        refusedForGood = permanent;
        return permanent;
    }

    /**
     * After a batch failed, one listing shows which of its instances it did reach (a start that ran out of capacity
     * part way has still started some): those are done, and must be recorded as such. It is made whatever
     * hpcscale's allowance says (its cost is owed), unless Azure reports the listing budget low.
     */
    private void readBack(ScaleSetDriver d, PowerCall call, CallOutcomes outcomes) {
        Map<AzureVm, PowerState> states;
        try {
            states = listOwing(d);
        } catch (CloudException e) {
            return;
        }
        if (states == null) {
            return;
        }
        Map<String, PowerState> now = new HashMap<>();
        states.forEach((vm, state) -> now.put(vm.vmName(), state));
        for (String vmName : outcomes.failures().keySet()) {
            if (!(outcomes.failure(vmName) instanceof FlexibleDriver.NotCalled) && call.tookEffect(now.get(vmName))) {
                outcomes.done(vmName);
            }
        }
    }

    /**
     * Keeps the pool's standby pool as configured when a check is due, against the scale set read afresh (hibernation
     * or fault domains may have changed since): here, after the cycle's actions, so that no read-only command does.
     */
    @Override
    public List<String> tidy() throws CloudException, InterruptedException {
        if (standby == null || !standby.due()) {
            return List.of();
        }
        return standby.keep(this::readModel).map(List::of).orElse(List.of());
    }

    @Override
    public boolean canCreate() {
        return pool.allowCreate();
    }

    /**
     * Raises the scale set's capacity with the smallest PATCH there is, {@code {"sku":{"capacity":n}}}, from the
     * capacity read just before, and lists again to find the instances it added (the cycle's listing says which
     * were there before).
     */
    @Override
    public CreateResult create(int count) throws CloudException, InterruptedException {
        if (!pool.allowCreate()) {
            throw new CloudException("pool " + pool.pool() + " may not create instances: set pool." + pool.pool()
                    + ".azure.allowCreate = true to let it grow " + pool.describe());
        }
        CapacityException refused = refusedForGood;
        if (refused != null) {
            return new CreateResult(List.of(), refused);
        }
        ScaleSetModel fresh = readModel();
        Set<String> before = new HashSet<>(listing.names());
        if (before.isEmpty()) {
            list().forEach(instance -> before.add(instance.id()));
        }
        String asked = "add " + count + " instances to " + pool.describe() + " (capacity " + fresh.capacity()
                + " to " + (fresh.capacity() + count) + ")";
        CloudException failure = null;
        try {
            SyncPoller<?, ?> poller = clients.compute(pool.subscriptionId()).serviceClient()
                    .getVirtualMachineScaleSets().beginUpdate(pool.resourceGroup(), pool.scaleSet(),
                            new VirtualMachineScaleSetUpdate().withSku(new Sku().withCapacity(
                                    (long) fresh.capacity() + count)), null, null, Context.NONE);
            String unfinished = operations.await(poller);
            if (unfinished != null) {
                failure = new CloudException("cannot yet tell what came of: " + asked + ": " + unfinished);
            }
        } catch (RuntimeException e) {
            failure = permanence(e, ArmErrors.map(asked, e, sizes.knownVcpus(pool.subscriptionId(),
                    fresh.location(), fresh.vmSize())));
        }
        listing.grew();
        List<Instance> created = new ArrayList<>();
        try {
            // While Azure reports the listing budget low, the instances are found by the first listing it allows.
            Map<AzureVm, PowerState> states = listOwing(driver());
            if (states != null) {
                states.forEach((vm, state) -> {
                    if (!before.contains(vm.vmName())) {
                        created.add(instance(vm, state));
                    }
                });
            }
        } catch (CloudException e) {
            if (failure == null) {
                failure = new CloudException("added instances to " + pool.describe() + " but cannot list them: "
                        + e.getMessage() + "; the next listing finds them");
            }
        }
        return new CreateResult(created, failure);
    }

    @Override
    public Optional<VmShape> vmShape() throws CloudException, InterruptedException {
        ScaleSetModel m = model();
        if (m.vmSize() == null || m.location() == null) {
            throw new CloudException(pool.describe() + " shows no VM size or location");
        }
        try {
            return Optional.of(sizes.size(pool.subscriptionId(), m.location(), m.vmSize())
                    .orElseThrow(() -> new CloudException("VM size " + m.vmSize() + " of " + pool.describe()
                            + " is not among the resource SKUs of region " + m.location() + " for this subscription"))
                    .shape());
        } catch (RuntimeException e) {
            throw ArmErrors.map("read the VM sizes of region " + m.location(), e, 0);
        }
    }

    @Override
    public boolean manages(String resourceGroup, String scaleSet) {
        return pool.resourceGroup().equalsIgnoreCase(resourceGroup) && pool.scaleSet().equalsIgnoreCase(scaleSet);
    }

    @Override
    public String account() {
        return "azure:" + pool.subscriptionId();
    }

    @Override
    public String describe() {
        ScaleSetModel m = model;
        return (m == null ? "" : m.mode() + " ") + pool.describe();
    }

    @Override
    public boolean spot() {
        ScaleSetModel m = model;
        return m != null && m.spot();
    }

    /**
     * The scale set's size, region and priority as last read, with the size's family, cores and InfiniBand once its
     * SKU is read (the first listing reads it); the scale set is one placement group when its
     * {@code singlePlacementGroup} is true.
     */
    @Override
    public Map<String, Object> nodeFacts() {
        ScaleSetModel m = model;
        if (m == null) {
            return Map.of();
        }
        Map<String, Object> facts = new HashMap<>();
        facts.put("spot", m.spot());
        if (m.vmSize() != null) {
            facts.put("vm_size", m.vmSize());
        }
        if (m.location() != null) {
            facts.put("location", m.location());
        }
        facts.put("placement_group", Boolean.TRUE.equals(m.singlePlacementGroup()) ? pool.scaleSet() : null);
        VmSizeCatalog.Size size = sizes.known(pool.subscriptionId(), m.location(), m.vmSize());
        // Unknown until the size's SKU is read: null, never a guess of false.
        facts.put("vm_family", size == null ? null : size.family());
        facts.put("pcpu_count", size == null ? null : (Object) (long) size.cores());
        facts.put("infiniband", size == null ? null : size.rdma());
        return facts;
    }

    private AzureVm vmOf(Instance instance) {
        AzureVm known = listing.vm(instance.id());
        if (known != null) {
            return known;
        }
        int underscore = instance.id().lastIndexOf('_');
        String instanceId = model != null && !model.flexible() && underscore >= 0
                ? instance.id().substring(underscore + 1) : instance.id();
        return new AzureVm(instance.id(), instanceId, null, Map.of(), null, null, null, false);
    }

    private ScaleSetDriver driver() throws CloudException {
        ScaleSetDriver d = driver;
        if (d == null) {
            ScaleSetModel m = model();
            d = m.flexible()
                    ? new FlexibleDriver(clients, pool, operations, m.id(), clients.settings().flexibleParallelism(),
                            gate)
                    : new UniformDriver(clients, pool, operations);
            driver = d;
        }
        return d;
    }

    private ScaleSetModel model() throws CloudException {
        ScaleSetModel m = model;
        return m != null ? m : readModel();
    }

    private ScaleSetModel readModel() throws CloudException {
        try {
            ScaleSetModel m = ScaleSetModel.of(clients.compute(pool.subscriptionId()).serviceClient()
                    .getVirtualMachineScaleSets().getByResourceGroup(pool.resourceGroup(), pool.scaleSet()));
            model = m;
            return m;
        } catch (RuntimeException e) {
            throw ArmErrors.map("read " + pool.describe(), e, 0);
        }
    }
}
