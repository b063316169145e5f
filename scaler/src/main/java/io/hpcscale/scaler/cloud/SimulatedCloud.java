package io.hpcscale.scaler.cloud;

import io.hpcscale.scaler.pool.StopAction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * A cloud in memory: one scale set per pool, instances that take a boot delay to run, and switches to inject the
 * failures a real cloud has (no capacity, quota, throttling, failed listing, boots that never complete, Spot
 * evictions). It also keeps the books: instance starts, stops and running time, for the demo and the simulator.
 * Time comes from the clock it is given, so a simulated clock drives it.
 */
public final class SimulatedCloud {

    /** Someone who wants to know when instances change state. */
    public interface Listener {
        /**
         * @param evicted the cloud stopped it on its own (a Spot eviction), rather than because someone asked
         */
        void changed(String pool, Instance instance, PowerState from, boolean evicted, Instant at);
    }

    private static final class Vm {
        final String id;
        final String node;
        final int scaleSetOrder;
        final int index;
        PowerState state = PowerState.STOPPED;
        Instant startedAt;
        Instant readyAt;
        boolean healthy = true;
        /** Stopped with its memory saved: its next start is a resume. */
        boolean hibernated;

        Vm(String id, String node, int scaleSetOrder, int index) {
            this.id = id;
            this.node = node;
            this.scaleSetOrder = scaleSetOrder;
            this.index = index;
        }

        Instance view() {
            return new Instance(id, node, state, null, hibernated && state == PowerState.STOPPED);
        }
    }

    private static final class ScaleSet {
        final String pool;
        final int order;
        final String nodePrefix;
        final Supplier<Duration> bootDelay;
        /** A hibernated instance's start; null: as long as a boot. */
        Supplier<Duration> resumeDelay;
        final Map<String, Vm> vms = new LinkedHashMap<>();
        int nextIndex;
        Integer quota;
        Integer capacityLeft;
        int failingStarts;
        boolean failWithQuota;
        int brokenBoots;
        int throttledCalls;
        Duration throttleRetryAfter = Duration.ofSeconds(30);
        boolean spot;
        /** Seconds its instances ran, up to their last stop. */
        double instanceSeconds;

        ScaleSet(String pool, int order, String nodePrefix, Supplier<Duration> bootDelay) {
            this.pool = pool;
            this.order = order;
            this.nodePrefix = nodePrefix;
            this.bootDelay = bootDelay;
        }

        Vm add() {
            nextIndex++;
            Vm vm = new Vm(pool + "_" + nextIndex, String.format("%s%03d", nodePrefix, nextIndex), order, nextIndex);
            vms.put(vm.id, vm);
            return vm;
        }
    }

    /** A boot in progress; stale once its instance stopped or started again, and then skipped. */
    private record Boot(ScaleSet set, Vm vm, Instant readyAt) {
        boolean current() {
            return vm.state == PowerState.STARTING && vm.readyAt.equals(readyAt);
        }
    }

    private static final Comparator<Boot> SCALE_SET_ORDER = Comparator.comparingInt((Boot b) -> b.vm().scaleSetOrder)
            .thenComparingInt(b -> b.vm().index);

    private final Clock clock;
    private final Map<String, ScaleSet> scaleSets = new LinkedHashMap<>();
    /** Instances running as someone started them outside hpcscale ({@link #startOutside}). */
    private final Set<String> outside = new HashSet<>();
    // Kept by ready time so that catching up with the clock touches only the boots that completed, not every
    // instance of every scale set: with a thousand pools, each pool's listing would otherwise scan them all.
    private final PriorityQueue<Boot> boots = new PriorityQueue<>(Comparator.comparing(Boot::readyAt));
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private long changes;
    private long starts;
    private long stops;
    private long evictions;
    private double instanceSeconds;

    public SimulatedCloud(Clock clock) {
        this.clock = clock;
    }

    /** A scale set of {@code size} stopped instances whose nodes are named {@code <nodePrefix>001}, ... */
    public void addScaleSet(String pool, int size, String nodePrefix, Duration bootDelay) {
        addScaleSet(pool, size, nodePrefix, () -> bootDelay);
    }

    /** A scale set whose instances each take a boot delay drawn from {@code bootDelay}. */
    public synchronized void addScaleSet(String pool, int size, String nodePrefix, Supplier<Duration> bootDelay) {
        ScaleSet set = new ScaleSet(pool, scaleSets.size(), nodePrefix, bootDelay);
        for (int i = 0; i < size; i++) {
            set.add();
        }
        scaleSets.put(pool, set);
    }

    /**
     * Instances of the pool stopped with {@link StopAction#HIBERNATE} take a delay drawn from {@code resumeDelay}
     * to run again, rather than a boot's.
     */
    public synchronized void resumeDelay(String pool, Supplier<Duration> resumeDelay) {
        set(pool).resumeDelay = resumeDelay;
    }

    public synchronized boolean hasScaleSet(String pool) {
        return scaleSets.containsKey(pool);
    }

    public CloudProvider provider(String pool) {
        return new SimulatedCloudProvider(this, pool);
    }

    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    // ---- injection -------------------------------------------------------------------------------------------

    /** The next {@code times} start or create calls fail: with a capacity error, or a quota error. */
    public synchronized void failStarts(String pool, int times, boolean quota) {
        ScaleSet set = set(pool);
        set.failingStarts = times;
        set.failWithQuota = quota;
    }

    /** At most this many instances of the pool may be active; starting more is a quota error. */
    public synchronized void setQuota(String pool, Integer maxActive) {
        set(pool).quota = maxActive;
    }

    /**
     * Only this many more instances of the pool can start (null: no limit): a larger batch starts that many and
     * fails for the rest with a capacity error, as an Azure batch that half-succeeds.
     */
    public synchronized void setCapacityLeft(String pool, Integer instances) {
        set(pool).capacityLeft = instances;
    }

    /**
     * Someone adds an instance to the scale set outside hpcscale (the portal, a script), from an image whose node no
     * scheduler defines: it runs, and no agent ever reports its node. Once it stops, its next start is from the scale
     * set's own model, like any other. The instance's id.
     */
    public synchronized String startOutside(String pool) {
        refresh();
        ScaleSet set = set(pool);
        Vm vm = set.add();
        outside.add(vm.id);
        boot(set, vm);
        vm.healthy = false;
        return vm.id;
    }

    /** Whether the instance runs as someone started it outside hpcscale, its node unknown to the scheduler. */
    public synchronized boolean startedOutside(String instanceId) {
        return outside.contains(instanceId);
    }

    /** The next {@code count} instances started run, but their node never reports to the scheduler. */
    public synchronized void breakBoots(String pool, int count) {
        set(pool).brokenBoots = count;
    }

    /** The next {@code calls} calls to the pool are throttled. */
    public synchronized void throttle(String pool, int calls, Duration retryAfter) {
        ScaleSet set = set(pool);
        set.throttledCalls = calls;
        set.throttleRetryAfter = retryAfter;
    }

    /** Azure takes a Spot instance back: it stops without being asked. Only Spot scale sets are evicted. */
    public synchronized void evict(String pool, String instanceId) {
        refresh();
        set(pool).spot = true;
        Vm vm = set(pool).vms.get(instanceId);
        if (vm != null && vm.state.active()) {
            evictions++;
            vm.hibernated = false;
            change(pool, vm, PowerState.STOPPED, true);
        }
    }

    /** Whether the scale set runs Spot instances: it does once anything of it was evicted. */
    public synchronized boolean spot(String pool) {
        return set(pool).spot;
    }

    // ---- what the simulated scheduler and the books see --------------------------------------------------------

    /** Instances of the pool as they are now. */
    public synchronized List<Instance> instances(String pool) {
        refresh();
        return set(pool).vms.values().stream().map(Vm::view).toList();
    }

    /** Whether the node runs and would report to its scheduler. */
    public synchronized boolean nodeUp(String pool, String node) {
        refresh();
        ScaleSet set = scaleSets.get(pool);
        if (set == null) {
            return false;
        }
        return set.vms.values().stream().anyMatch(v -> v.node.equals(node) && v.state == PowerState.RUNNING
                && v.healthy);
    }

    /** Nodes of the pool whose instance runs and would report to the scheduler: one pass over the scale set. */
    public synchronized Set<String> upNodes(String pool) {
        refresh();
        ScaleSet set = scaleSets.get(pool);
        Set<String> up = new HashSet<>();
        if (set != null) {
            for (Vm vm : set.vms.values()) {
                if (vm.state == PowerState.RUNNING && vm.healthy) {
                    up.add(vm.node);
                }
            }
        }
        return up;
    }

    /**
     * A number that changes whenever any instance changes state, boots completed by now included: who keeps a view
     * of the instances can skip rebuilding it while this stays the same.
     */
    public synchronized long version() {
        refresh();
        return changes;
    }

    /** When the next instance now booting will be running, or null: the simulator's next wake-up. */
    public synchronized Instant nextBootCompletion() {
        while (!boots.isEmpty() && !boots.peek().current()) {
            boots.poll();
        }
        return boots.isEmpty() ? null : boots.peek().readyAt();
    }

    public synchronized long starts() {
        return starts;
    }

    public synchronized long stops() {
        return stops;
    }

    public synchronized long evictions() {
        return evictions;
    }

    /** Instances of all pools active (starting or running) now. */
    public synchronized int activeInstances() {
        refresh();
        return (int) scaleSets.values().stream().flatMap(s -> s.vms.values().stream())
                .filter(v -> v.state.active()).count();
    }

    /** Hours the pool's instances have been active, as {@link #instanceHours()} counts them. */
    public synchronized double instanceHours(String pool) {
        refresh();
        ScaleSet set = set(pool);
        double open = 0;
        Instant now = clock.instant();
        for (Vm vm : set.vms.values()) {
            if (vm.state.active()) {
                open += Duration.between(vm.startedAt, now).toMillis() / 1000.0;
            }
        }
        return (set.instanceSeconds + open) / 3600.0;
    }

    /** Instance-hours charged so far: from each start request to its stop. */
    public synchronized double instanceHours() {
        refresh();
        double open = 0;
        Instant now = clock.instant();
        for (ScaleSet set : scaleSets.values()) {
            for (Vm vm : set.vms.values()) {
                if (vm.state.active()) {
                    open += Duration.between(vm.startedAt, now).toMillis() / 1000.0;
                }
            }
        }
        return (instanceSeconds + open) / 3600.0;
    }

    // ---- the provider's calls ----------------------------------------------------------------------------------

    synchronized List<Instance> list(String pool) throws CloudException {
        ScaleSet set = set(pool);
        checkThrottle(set);
        return instances(pool);
    }

    synchronized InstanceResults start(String pool, List<Instance> instances) throws CloudException {
        ScaleSet set = set(pool);
        checkThrottle(set);
        refresh();
        checkStartAllowed(set, instances.size());
        InstanceResults.Builder results = new InstanceResults.Builder();
        for (Instance instance : instances) {
            Vm vm = set.vms.get(instance.id());
            if (vm == null) {
                results.failed(instance, new NotFoundException("simulated scale set " + pool + " has no instance "
                        + instance.id()));
            } else if (vm.state != PowerState.STOPPED) {
                results.done(instance);
            } else if (set.capacityLeft != null && set.capacityLeft <= 0) {
                results.failed(instance, new CapacityException("AllocationFailed: simulated scale set " + pool
                        + " has no capacity left for " + instance.id()));
            } else {
                takeCapacity(set);
                boot(set, vm);
                results.done(instance);
            }
        }
        return results.build();
    }

    synchronized CreateResult create(String pool, int count) throws CloudException {
        ScaleSet set = set(pool);
        checkThrottle(set);
        refresh();
        checkStartAllowed(set, count);
        List<Instance> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (set.capacityLeft != null && set.capacityLeft <= 0) {
                return new CreateResult(created, new CapacityException("AllocationFailed: simulated scale set "
                        + pool + " created " + created.size() + " of " + count + " instances"));
            }
            takeCapacity(set);
            Vm vm = set.add();
            boot(set, vm);
            created.add(vm.view());
        }
        return new CreateResult(created, null);
    }

    synchronized InstanceResults stop(String pool, List<Instance> instances, StopAction action)
            throws CloudException {
        ScaleSet set = set(pool);
        checkThrottle(set);
        refresh();
        InstanceResults.Builder results = new InstanceResults.Builder();
        for (Instance instance : instances) {
            Vm vm = set.vms.get(instance.id());
            if (vm == null) {
                results.failed(instance, new NotFoundException("simulated scale set " + pool + " has no instance "
                        + instance.id()));
                continue;
            }
            if (vm.state.active()) {
                stops++;
                vm.hibernated = action == StopAction.HIBERNATE;
                change(pool, vm, PowerState.STOPPED);
            }
            if (action == StopAction.DELETE) {
                set.vms.remove(vm.id);
            }
            results.done(instance);
        }
        return results.build();
    }

    private static void takeCapacity(ScaleSet set) {
        if (set.capacityLeft != null) {
            set.capacityLeft--;
        }
    }

    private void boot(ScaleSet set, Vm vm) {
        starts++;
        vm.startedAt = clock.instant();
        Duration delay = vm.hibernated && set.resumeDelay != null ? set.resumeDelay.get() : set.bootDelay.get();
        vm.hibernated = false;
        vm.readyAt = vm.startedAt.plus(delay);
        vm.healthy = true;
        if (set.brokenBoots > 0) {
            set.brokenBoots--;
            vm.healthy = false;
        }
        change(set.pool, vm, delay.isZero() ? PowerState.RUNNING : PowerState.STARTING);
        if (vm.state == PowerState.STARTING) {
            boots.add(new Boot(set, vm, vm.readyAt));
        }
    }

    private void checkStartAllowed(ScaleSet set, int count) throws CloudException {
        if (set.failingStarts > 0) {
            set.failingStarts--;
            if (set.failWithQuota) {
                throw new QuotaException("OperationNotAllowed: simulated quota exceeded for scale set " + set.pool);
            }
            throw new CapacityException("AllocationFailed: simulated capacity shortage for scale set " + set.pool);
        }
        if (set.quota != null) {
            long active = set.vms.values().stream().filter(v -> v.state.active()).count();
            if (active + count > set.quota) {
                throw new QuotaException("OperationNotAllowed: " + count + " more instances would exceed the quota "
                        + "of " + set.quota + " for scale set " + set.pool + " (" + active + " active)",
                        (int) Math.max(0, set.quota - active));
            }
        }
    }

    private void checkThrottle(ScaleSet set) throws ThrottledException {
        if (set.throttledCalls > 0) {
            set.throttledCalls--;
            throw new ThrottledException("429 TooManyRequests from simulated scale set " + set.pool,
                    set.throttleRetryAfter);
        }
    }

    /** Boots whose time has come complete, in scale-set order, as listeners have always seen them. */
    private void refresh() {
        Instant now = clock.instant();
        List<Boot> done = new ArrayList<>();
        while (!boots.isEmpty() && !boots.peek().readyAt().isAfter(now)) {
            Boot boot = boots.poll();
            if (boot.current()) {
                done.add(boot);
            }
        }
        done.sort(SCALE_SET_ORDER);
        for (Boot boot : done) {
            // An instance stopped and started again within one instant has two boots with the same ready time.
            if (boot.current()) {
                change(boot.set().pool, boot.vm(), PowerState.RUNNING);
            }
        }
    }

    private void change(String pool, Vm vm, PowerState to) {
        change(pool, vm, to, false);
    }

    private void change(String pool, Vm vm, PowerState to, boolean evicted) {
        PowerState from = vm.state;
        if (from.active() && !to.active()) {
            double seconds = Duration.between(vm.startedAt, clock.instant()).toMillis() / 1000.0;
            instanceSeconds += seconds;
            set(pool).instanceSeconds += seconds;
        }
        vm.state = to;
        changes++;
        if (!to.active()) {
            outside.remove(vm.id);
        }
        Instance view = vm.view();
        for (Listener listener : listeners) {
            listener.changed(pool, view, from, evicted, clock.instant());
        }
    }

    private ScaleSet set(String pool) {
        ScaleSet set = scaleSets.get(pool);
        if (set == null) {
            throw new IllegalArgumentException("the simulated cloud has no scale set for pool " + pool);
        }
        return set;
    }
}
