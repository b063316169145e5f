package io.hpcscale.simulator.replay;

import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.simulator.SimJob;
import io.hpcscale.simulator.SimulatedScheduler;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The behaviour hpcscale replaces (PintaScaler's): every ten minutes, start as many nodes as the queued jobs ask for,
 * and stop every free node at once. No drain, no idle timeout, no account of nodes already booting.
 */
final class PintaScalerRun extends PolicyRun {
    private final SimulatedCloud cloud;
    private final SimulatedScheduler scheduler;
    private final CloudProvider provider;
    private final Instant origin;

    PintaScalerRun(SimulationSettings settings, List<SimJob> jobs, SettableClock clock) {
        super(settings, jobs, clock);
        this.cloud = new SimulatedCloud(clock);
        cloud.addScaleSet(Simulation.POOL, settings.maxNodes(), Simulation.POOL + "-vm",
                () -> settings.bootTimes().sample(random));
        if (settings.quota() != null) {
            cloud.setQuota(Simulation.POOL, settings.quota());
        }
        this.scheduler = new SimulatedScheduler(cloud, clock, Map.of(Simulation.POOL, Simulation.POOL),
                settings.cpusPerNode(), 4096);
        this.provider = cloud.provider(Simulation.POOL);
        this.origin = clock.instant();
    }

    @Override
    String name() {
        return "pintascaler";
    }

    @Override
    int capacity() {
        return settings.maxNodes();
    }

    @Override
    SimulatedCloud cloud() {
        return cloud;
    }

    @Override
    SimulatedScheduler scheduler() {
        return scheduler;
    }

    @Override
    Instant nextPolicyEvent(Instant now) {
        if (scheduler.queuedJobs() == 0 && cloud.activeInstances() == 0) {
            return null;
        }
        return tickAfter(now, origin, settings.pintaInterval());
    }

    @Override
    void act(Instant now) throws InterruptedException {
        if (!isTick(now, origin, settings.pintaInterval())) {
            return;
        }
        try {
            List<Instance> instances = provider.list();
            List<Instance> free = instances.stream().filter(i -> i.state() == PowerState.RUNNING
                    && !scheduler.busy(i.nodeName())).toList();
            if (!free.isEmpty()) {
                provider.stop(free, StopAction.DEALLOCATE);
            }
            List<Instance> stopped = provider.list().stream().filter(i -> i.state() == PowerState.STOPPED)
                    .limit(scheduler.queuedNodes()).toList();
            if (!stopped.isEmpty()) {
                provider.start(stopped);
            }
        } catch (CloudException e) {
            // A quota refusal leaves the nodes as they are until the next round, as PintaScaler did.
        }
    }

    @Override
    boolean settled() {
        return cloud.activeInstances() == 0;
    }
}
