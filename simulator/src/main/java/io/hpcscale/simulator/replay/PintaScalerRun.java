package io.hpcscale.simulator.replay;

import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.simulator.SimJob;
import java.time.Instant;
import java.util.List;

/**
 * The behaviour hpcscale replaces (PintaScaler's): every ten minutes, start as many nodes as the queued jobs ask for,
 * and stop every free node at once. No drain, no idle timeout, no account of nodes already booting.
 */
final class PintaScalerRun extends PeerRun {

    PintaScalerRun(SimulationSettings settings, List<SimJob> jobs, SettableClock clock) {
        super(settings, jobs, clock);
    }

    @Override
    String name() {
        return "pintascaler";
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
}
