package io.hpcscale.simulator.replay;

import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.IdleTimeouts;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.PoolOutcome;
import io.hpcscale.scaler.run.ScalerEvent;
import io.hpcscale.simulator.SimJob;
import io.hpcscale.simulator.SimulatedCluster;
import io.hpcscale.simulator.SimulatedScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * hpcscale itself: the real agent framework and the real scaler over an in-memory store, at their cadences (agent
 * every two minutes, scaler every minute, half a minute apart), and with their quick checks: a job queued, started
 * or ended, or a drain asked for or withdrawn, runs the agent's full read at the next {@code agentQuickInterval}
 * tick (what its cheap queue signature and the drain marker would show it), and a change the agent wrote runs the
 * scaler at the next {@code scalerQuickInterval} tick (what the heartbeat's LastChangeAt would show it). A boot
 * completing is seen at the agent's next full read, as the quick signature does not show it.
 *
 * <p>A cycle is skipped only when it provably could not change anything: the agent when neither the scheduler, the
 * cloud nor a drain request changed since it last ran (it would write nothing but its heartbeat, which is written
 * for it); the scaler when no document, instance or timer (an idle timeout, a boot timeout, a backoff) changed or
 * came due. Skipping them is what lets months of a trace replay in seconds.
 */
final class HpcscaleRun extends PolicyRun {

    private final SimulatedCluster cluster;
    /** The pools that serve the trace's queue: one, or one per VM size, the first the one the agent maps. */
    private final List<PoolConfig> pools;
    private final String name;
    private final Instant agentOrigin;
    private final Instant scalerOrigin;
    private final Map<String, VmDocument> vms = new HashMap<>();
    private boolean agentDirty = true;
    private boolean scalerDirty = true;
    private boolean agentUrgent;
    private boolean scalerUrgent;
    private Instant scalerTimer;

    HpcscaleRun(SimulationSettings settings, List<SimJob> jobs, SettableClock clock, PoolConfig pool) {
        this(settings, jobs, clock, List.of(pool), "hpcscale");
    }

    /** @param pools the pool the agent maps, then its fallbacks (each a VM size) in the order jobs try them */
    HpcscaleRun(SimulationSettings settings, List<SimJob> jobs, SettableClock clock, List<PoolConfig> pools,
            String name) {
        super(settings, jobs, clock);
        this.pools = List.copyOf(pools);
        this.name = name;
        this.cluster = new SimulatedCluster(clock, new InMemoryClusterLoadStore(clock), new SimulatedCluster.Spec(
                pools, settings.maxNodes(), () -> settings.bootTimes().sample(random), Duration.ofMinutes(6),
                Duration.ofDays(1)));
        if (settings.resumeTimes() != null) {
            pools.forEach(p -> cluster.cloud().resumeDelay(p.name(), () -> settings.resumeTimes().sample(random)));
        }
        if (settings.quota() != null) {
            cluster.cloud().setQuota(Simulation.POOL, settings.quota());
        }
        if (settings.fixedTarget() != null) {
            cluster.setTarget(Simulation.POOL, settings.fixedTarget());
        }
        this.agentOrigin = clock.instant();
        this.scalerOrigin = clock.instant().plusSeconds(30);
        cluster.cloud().addListener((p, instance, from, evicted, at) -> {
            agentDirty = true;
            scalerDirty = true;
        });
        cluster.scheduler().addListener(new SimulatedScheduler.Listener() {
            @Override
            public void jobStarted(SimJob job, List<String> nodes, Instant at) {
                agentDirty = true;
                agentUrgent = true;
            }

            @Override
            public void jobFinished(SimJob job, Instant at) {
                agentDirty = true;
                agentUrgent = true;
            }

            @Override
            public void nodeUp(String node, Instant at) {
                agentDirty = true;
            }

            @Override
            public void violation(String message, Instant at) {
                agentDirty = true;
            }
        });
    }

    @Override
    String name() {
        return name;
    }

    @Override
    int capacity() {
        return settings.maxNodes();
    }

    /** Hours the pool's instances were active. */
    double instanceHours(String pool) {
        return cluster.cloud().instanceHours(pool);
    }

    @Override
    SimulatedCloud cloud() {
        return cluster.cloud();
    }

    @Override
    SimulatedScheduler scheduler() {
        return cluster.scheduler();
    }

    @Override
    void submitted(SimJob job) {
        agentDirty = true;
        agentUrgent = true;
    }

    @Override
    Instant nextPolicyEvent(Instant now) {
        Instant next = null;
        if (agentDirty) {
            next = tickAfter(now, agentOrigin, settings.agentInterval());
        }
        if (agentUrgent && !settings.agentQuickInterval().isZero()) {
            next = earlier(next, tickAfter(now, agentOrigin, settings.agentQuickInterval()));
        }
        if (scalerDirty) {
            next = earlier(next, tickAfter(now, scalerOrigin, settings.scalerInterval()));
        }
        if (scalerUrgent && !settings.scalerQuickInterval().isZero()) {
            next = earlier(next, tickAfter(now, scalerOrigin, settings.scalerQuickInterval()));
        }
        if (scalerTimer != null) {
            Instant due = scalerTimer.isAfter(now) ? scalerTimer : now.plusMillis(1);
            next = earlier(next, tickAtOrAfter(due, scalerOrigin, settings.scalerInterval()));
        }
        return next;
    }

    @Override
    void act(Instant now) throws InterruptedException {
        boolean quickAgent = agentUrgent && !settings.agentQuickInterval().isZero()
                && isTick(now, agentOrigin, settings.agentQuickInterval());
        if ((agentDirty && isTick(now, agentOrigin, settings.agentInterval())) || quickAgent) {
            agentDirty = false;
            agentUrgent = false;
            CycleReport report = cluster.agentCycle();
            report.written().forEach(d -> {
                if (d instanceof VmDocument vm) {
                    vms.put(vm.name(), vm);
                }
            });
            if (!report.written().isEmpty() || !report.deleted().isEmpty() || !report.takenOffline().isEmpty()
                    || !report.broughtBack().isEmpty()) {
                scalerDirty = true;
                scalerUrgent = true;
            }
            updateTimer();
        }
        boolean timerDue = scalerTimer != null && !scalerTimer.isAfter(now);
        boolean quickScaler = scalerUrgent && !settings.scalerQuickInterval().isZero()
                && isTick(now, scalerOrigin, settings.scalerQuickInterval());
        if (((scalerDirty || timerDue) && isTick(now, scalerOrigin, settings.scalerInterval())) || quickScaler) {
            scalerDirty = false;
            scalerUrgent = false;
            heartbeat(latestAgentTick(now));
            CycleOutcome outcome = cluster.scalerCycle();
            for (PoolOutcome pool : outcome.pools()) {
                for (ScalerEvent event : pool.events()) {
                    if (event.kind().action()) {
                        agentDirty = true;
                        scalerDirty = true;
                    }
                    if (event.kind() == EventKind.DRAIN || event.kind() == EventKind.CANCEL_DRAIN) {
                        agentUrgent = true;
                    }
                }
            }
            updateTimer();
        }
    }

    @Override
    boolean settled() {
        // A fixed pool keeps its count after the last job, as a static cluster does, and a pool its min and warm
        // nodes: at rest once the jobs are done.
        return settings.fixedTarget() != null
                || cloud().activeInstances() <= pools.stream()
                        .mapToInt(pool -> Math.max(pool.min(), pool.warm().at(clock.instant()))).sum();
    }

    /** The agent ran (or would have, writing only its heartbeat) at its last tick. */
    private void heartbeat(Instant at) {
        cluster.documents().upsert(List.of(new AgentDocument(cluster.agentId(), "sim", SimulatedCluster.AGENT_HOST,
                "sim", at, 0, pools.stream().map(PoolConfig::name).toList(), null, at)));
    }

    private Instant latestAgentTick(Instant now) {
        Instant next = tickAfter(now, agentOrigin, settings.agentInterval());
        return next.minus(settings.agentInterval());
    }

    /** The next moment the scaler could decide differently with nothing else changing. */
    private void updateTimer() {
        Instant timer = null;
        Duration idleTimeout = pools.stream().map(pool -> IdleTimeouts.of(pool,
                cluster.scalerState(pool.name()).idleLearning()).timeout()).min(Duration::compareTo).orElseThrow();
        for (VmDocument vm : vms.values()) {
            if (vm.jobStatus() == NodeJobStatus.Free && vm.idle() && !vm.offline() && !vm.down()
                    && vm.lastBusyAt() != null) {
                timer = earlier(timer, vm.lastBusyAt().plus(idleTimeout));
            }
        }
        for (PoolConfig pool : pools) {
            ScalerStateDocument state = cluster.scalerState(pool.name());
            for (InstanceRecord record : state.instances().values()) {
                if (record.bootingSince() != null) {
                    timer = earlier(timer, record.bootingSince().plus(pool.bootTimeout()));
                }
            }
            if (state.backoffUntil() != null) {
                timer = earlier(timer, state.backoffUntil());
            }
            timer = earlier(timer, pool.warm().nextChange(clock.instant()).orElse(null));
            for (var gang : state.gangs().values()) {
                timer = earlier(timer, (gang.givenBackAt() == null ? gang.askedAt().plus(pool.gangTimeout())
                        : gang.givenBackAt().plus(pool.capacityBackoff())));
            }
        }
        scalerTimer = timer;
    }

    private static Instant earlier(Instant a, Instant b) {
        return a == null || (b != null && b.isBefore(a)) ? b : a;
    }
}
