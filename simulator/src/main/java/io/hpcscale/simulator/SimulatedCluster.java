package io.hpcscale.simulator;

import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.agent.JobAdmission;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.time.Monotonic;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.fixed.StoredTarget;
import io.hpcscale.scaler.fixed.TargetUnavailableException;
import io.hpcscale.scaler.plan.Planner;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolMatching;
import io.hpcscale.scaler.run.ActionGate;
import io.hpcscale.scaler.run.ActionHooks;
import io.hpcscale.scaler.run.CloudThrottles;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.LeaseHolder;
import io.hpcscale.scaler.run.PoolRuntime;
import io.hpcscale.scaler.run.RemovalInbox;
import io.hpcscale.scaler.run.Scaler;
import io.hpcscale.scaler.run.ScalerEvents;
import io.hpcscale.scaler.run.ScalerLease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A whole cluster on one clock: a simulated cloud, a simulated scheduler, the real agent framework and real scalers,
 * sharing a store. Each pool serves the queue of its own name; its scale set's nodes are named
 * {@code <pool>-vm001}, ... A scaler can be restarted (as if killed and started again on its host) and a second
 * scaler, on another host, can run beside the first: only the one holding the lease acts.
 */
public final class SimulatedCluster {

    /**
     * @param scaleSetSize instances in each pool's scale set (all stopped at first)
     */
    public record Spec(List<PoolConfig> pools, int scaleSetSize, Supplier<Duration> bootDelays, Duration staleAfter,
            Duration eventTtl) {
        public Spec {
            pools = List.copyOf(pools);
        }

        /** Every instance boots in the same time. */
        public Spec(List<PoolConfig> pools, int scaleSetSize, Duration bootDelay, Duration staleAfter,
                Duration eventTtl) {
            this(pools, scaleSetSize, () -> bootDelay, staleAfter, eventTtl);
        }
    }

    /** The host name of the cluster's agent; its id is {@code agent-simulated-sim}. */
    public static final String AGENT_HOST = "simulated";
    private static final Duration LEASE_TTL = Duration.ofMinutes(3);
    /** How long a node's health check takes, in a pool with one. */
    private static final Duration NODE_CHECK_TIME = Duration.ofSeconds(30);
    /**
     * How long a node whose check failed waits to be held before its daemon starts: longer than any outage of the
     * agent the soak makes, so that a failed node never takes a job (a site that wants the same sets
     * node.healthCheckHoldWait high, and TimeoutStartSec with it).
     */
    private static final Duration NODE_HOLD_WAIT = Duration.ofHours(2);

    private final SettableClock clock;
    private final SimulatedCloud cloud;
    private final SimulatedScheduler scheduler;
    private final PoolMap poolMap;
    private Agent agent;
    private UnaryOperator<SchedulerAdapter> schedulerInterceptor = UnaryOperator.identity();
    private final ScalerEvents events;
    private final DocumentStore documents;
    private final Spec spec;
    private final Set<String> checkedPools;
    private final SimulatedNodePrograms nodePrograms;
    private final List<Scaler> scalers = new ArrayList<>();
    private final Set<Long> runningScalerProcesses = new HashSet<>();
    private long nextScalerProcess = 100;
    private UnaryOperator<CloudProvider> providerInterceptor = UnaryOperator.identity();
    private final RemovalInbox removals = RemovalInbox.none();

    public SimulatedCluster(SettableClock clock, ClusterLoadStore store, Spec spec) {
        this.clock = clock;
        this.cloud = new SimulatedCloud(clock);
        // A pool's queue is its name; a fallback's nodes serve its primary's queue, in the order the pools are given.
        Map<String, String> primaryOf = new HashMap<>();
        spec.pools().forEach(pool -> pool.fallbacks().forEach(fallback -> primaryOf.put(fallback, pool.name())));
        Map<String, String> queueByPool = new LinkedHashMap<>();
        Map<String, Integer> cpusByPool = new HashMap<>();
        Map<String, String> poolByQueue = new LinkedHashMap<>();
        for (PoolConfig pool : spec.pools()) {
            cloud.addScaleSet(pool.name(), spec.scaleSetSize(), pool.name() + "-vm", spec.bootDelays());
            String queue = primaryOf.getOrDefault(pool.name(), pool.name());
            queueByPool.put(pool.name(), queue);
            cpusByPool.put(pool.name(), pool.shape().cpus());
            if (queue.equals(pool.name())) {
                poolByQueue.put(queue, pool.name());
            }
        }
        this.scheduler = new SimulatedScheduler(cloud, clock, queueByPool, cpusByPool,
                spec.pools().get(0).shape().memoryMb());
        this.documents = new DocumentStore(store);
        this.poolMap = new PoolMap(poolByQueue, Map.of(), List.copyOf(primaryOf.keySet()),
                PoolMap.MultiQueueRule.FIRST);
        Set<String> checked = spec.pools().stream().filter(PoolConfig::healthChecked).map(PoolConfig::name)
                .collect(java.util.stream.Collectors.toSet());
        this.checkedPools = checked;
        this.nodePrograms = new SimulatedNodePrograms(new DocumentStore(store), checked, NODE_CHECK_TIME,
                NODE_HOLD_WAIT);
        scheduler.runNodePrograms(nodePrograms);
        this.agent = newAgent();
        this.events = new ScalerEvents(documents, spec.eventTtl(), true);
        this.spec = spec;
        scalers.add(newScaler("scaler-host-1"));
    }

    private Agent newAgent() {
        return new Agent(schedulerInterceptor.apply(scheduler), documents, poolMap, AGENT_HOST, "sim",
                JobAdmission.none(), checkedPools);
    }

    private Scaler newScaler(String host) {
        long process = nextScalerProcess++;
        runningScalerProcesses.add(process);
        List<PoolRuntime> runtimes = spec.pools().stream()
                .map(p -> new PoolRuntime(p, providerInterceptor.apply(cloud.provider(p.name())),
                        p.fixed() ? new StoredTarget(documents, p.name(), clock) : null)).toList();
        ScalerLease lease = new ScalerLease(documents, LEASE_TTL, new LeaseHolder(host, process, "simulated-boot"),
                runningScalerProcesses::contains, Monotonic.following(clock));
        return new Scaler(runtimes, new Scaler.Wiring(documents, new Planner(spec.staleAfter(), Map.of(),
                PoolMatching.forPools(spec.pools())), events, lease,
                new ActionGate(), new CloudThrottles(), Runnable::run, clock, false, removals, Duration.ofHours(1),
                ActionHooks.none()));
    }

    /** The scheduler catches up with the clock, then the agent runs one cycle. */
    public CycleReport agentCycle() throws InterruptedException {
        scheduler.step();
        return agent.runOnce(clock.instant());
    }

    public CycleOutcome scalerCycle() throws InterruptedException {
        return scalerCycle(0);
    }

    /** A cycle of scaler {@code which}: 0 is the first, 1 the second once {@link #startSecondScaler()} ran. */
    public CycleOutcome scalerCycle(int which) throws InterruptedException {
        scheduler.step();
        return scalers.get(which).runOnce(clock.instant());
    }

    /**
     * Every scaler's provider calls go through {@code interceptor} from now on (the scalers are made anew): to count
     * them, or to kill a scaler in the middle of one.
     */
    public void interceptProviders(UnaryOperator<CloudProvider> interceptor) {
        providerInterceptor = interceptor;
        for (int i = 0; i < scalers.size(); i++) {
            scalers.set(i, newScaler(scalers.get(i).lease().self().host()));
        }
    }

    /**
     * The agent reads and commands the scheduler through {@code interceptor} from now on (the agent is made anew):
     * to make its commands hang or print garbage.
     */
    public void interceptScheduler(UnaryOperator<SchedulerAdapter> interceptor) {
        schedulerInterceptor = interceptor;
        agent = newAgent();
    }

    /** The agent's process is killed and started again: all it knew in memory is gone, the store keeps the rest. */
    public void restartAgent() {
        agent = newAgent();
        scheduler.agentRestarted();
    }

    /** The first scaler's process is killed and started again on its host: all it knew in memory is gone. */
    public void restartScaler() {
        restartScaler(0);
    }

    /** Scaler {@code which} (0 the first, 1 the second) is killed and started again on its host. */
    public void restartScaler(int which) {
        runningScalerProcesses.remove(scalers.get(which).lease().self().pid());
        scalers.set(which, newScaler(scalers.get(which).lease().self().host()));
    }

    /** A second scaler, on another host, beside the first; only one of them holds the lease at a time. */
    public void startSecondScaler() {
        if (scalers.size() == 1) {
            scalers.add(newScaler("scaler-host-2"));
        }
    }

    /** What the scalers remember of a pool, as the store holds it now. */
    public ScalerStateDocument scalerState(String pool) {
        return documents.read(new DocumentKey(pool, ScalerStateDocument.idFor(pool)), ScalerStateDocument.class)
                .map(DocumentStore.Versioned::document).orElse(ScalerStateDocument.empty(pool));
    }

    /** Whether the scaler has asked for this node to be drained, as the store holds it now. */
    public boolean hasDrainRequest(String node) {
        return documents.read(new DocumentKey(poolOf(node), DrainDocument.idFor(node)), DrainDocument.class)
                .isPresent();
    }

    private String poolOf(String node) {
        return node.substring(0, node.lastIndexOf("-vm"));
    }

    /** Sets a fixed pool's count, as {@code set-capacity} does for a pool whose target lives in the store. */
    public void setTarget(String pool, int count) {
        try {
            new StoredTarget(documents, pool, clock).write(count, "simulation");
        } catch (TargetUnavailableException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    public DocumentStore documents() {
        return documents;
    }

    public String agentId() {
        return agent.id();
    }

    public SettableClock clock() {
        return clock;
    }

    public SimulatedCloud cloud() {
        return cloud;
    }

    public SimulatedScheduler scheduler() {
        return scheduler;
    }

    /** What hpcscale-node does on the nodes: their health checks, and the notices of evictions. */
    public SimulatedNodePrograms nodePrograms() {
        return nodePrograms;
    }

    public ScalerEvents events() {
        return events;
    }

    public Scaler scaler() {
        return scalers.get(0);
    }
}
