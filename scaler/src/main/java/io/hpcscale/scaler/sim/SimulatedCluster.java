package io.hpcscale.scaler.sim;

import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.plan.Planner;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.PoolRuntime;
import io.hpcscale.scaler.run.Scaler;
import io.hpcscale.scaler.run.ScalerEvents;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A whole cluster on one clock: a simulated cloud, a simulated scheduler, the real agent framework and the real
 * scaler, sharing a store. Each pool serves the queue of its own name; its scale set's nodes are named
 * {@code <pool>-vm001}, ...
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

    private final SettableClock clock;
    private final SimulatedCloud cloud;
    private final SimulatedScheduler scheduler;
    private final Agent agent;
    private final Scaler scaler;
    private final ScalerEvents events;
    private final DocumentStore documents;

    public SimulatedCluster(SettableClock clock, ClusterLoadStore store, Spec spec) {
        this.clock = clock;
        this.cloud = new SimulatedCloud(clock);
        Map<String, String> queueByPool = new LinkedHashMap<>();
        for (PoolConfig pool : spec.pools()) {
            cloud.addScaleSet(pool.name(), spec.scaleSetSize(), pool.name() + "-vm", spec.bootDelays());
            queueByPool.put(pool.name(), pool.name());
        }
        PoolConfig first = spec.pools().get(0);
        this.scheduler = new SimulatedScheduler(cloud, clock, queueByPool, first.shape().cpus(),
                first.shape().memoryMb());
        this.documents = new DocumentStore(store);
        this.agent = new Agent(scheduler, documents, new PoolMap(queueByPool, Map.of()), AGENT_HOST, "sim");
        this.events = new ScalerEvents(documents, spec.eventTtl(), true);
        List<PoolRuntime> runtimes = spec.pools().stream()
                .map(p -> new PoolRuntime(p, cloud.provider(p.name()))).toList();
        this.scaler = new Scaler(runtimes, documents, new Planner(spec.staleAfter()), events, false);
    }

    /** The scheduler catches up with the clock, then the agent runs one cycle. */
    public CycleReport agentCycle() throws InterruptedException {
        scheduler.step();
        return agent.runOnce(clock.instant());
    }

    public CycleOutcome scalerCycle() throws InterruptedException {
        scheduler.step();
        return scaler.runOnce(clock.instant());
    }

    /** Whether the scaler has asked for this node to be drained, as the store holds it now. */
    public boolean hasDrainRequest(String node) {
        return documents.read(new DocumentKey(poolOf(node), DrainDocument.idFor(node)), DrainDocument.class)
                .isPresent();
    }

    private String poolOf(String node) {
        return node.substring(0, node.lastIndexOf("-vm"));
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

    public ScalerEvents events() {
        return events;
    }

    public Scaler scaler() {
        return scaler;
    }
}
