package io.hpcscale.simulator.replay;

import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.simulator.SimJob;
import io.hpcscale.simulator.SimulatedScheduler;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A fixed cluster: {@code size} nodes started with the first job and never stopped; an instance the cloud evicts is
 * started again at once.
 */
final class StaticRun extends PolicyRun {
    private final int size;
    private final SimulatedCloud cloud;
    private final SimulatedScheduler scheduler;

    StaticRun(SimulationSettings settings, List<SimJob> jobs, SettableClock clock, int size) {
        super(settings, jobs, clock);
        this.size = size;
        this.cloud = new SimulatedCloud(clock);
        cloud.addScaleSet(Simulation.POOL, size, Simulation.POOL + "-vm", () -> settings.bootTimes().sample(random));
        this.scheduler = new SimulatedScheduler(cloud, clock, Map.of(Simulation.POOL, Simulation.POOL),
                settings.cpusPerNode(), 4096);
    }

    @Override
    String name() {
        return "static:" + size;
    }

    @Override
    int capacity() {
        return size;
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
        return null;
    }

    @Override
    void act(Instant now) throws InterruptedException {
        List<Instance> stopped = cloud.instances(Simulation.POOL).stream()
                .filter(i -> i.state() == PowerState.STOPPED).toList();
        if (stopped.isEmpty()) {
            return;
        }
        try {
            cloud.provider(Simulation.POOL).start(stopped);
        } catch (CloudException e) {
            throw new IllegalStateException("the simulated cloud refused the static cluster: " + e.getMessage(), e);
        }
    }

    @Override
    boolean settled() {
        return true;
    }
}
