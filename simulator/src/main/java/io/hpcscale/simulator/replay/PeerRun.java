package io.hpcscale.simulator.replay;

import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.simulator.SimJob;
import io.hpcscale.simulator.SimulatedScheduler;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A peer's policy, on a scale set of its own of the settings' size and quota, and a scheduler of its own. */
abstract class PeerRun extends PolicyRun {
    protected final SimulatedCloud cloud;
    protected final SimulatedScheduler scheduler;
    protected final CloudProvider provider;
    /** When the replay began: the policy's own cadence counts from it. */
    protected final Instant origin;

    PeerRun(SimulationSettings settings, List<SimJob> jobs, SettableClock clock) {
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
    boolean settled() {
        return cloud.activeInstances() == 0;
    }
}
