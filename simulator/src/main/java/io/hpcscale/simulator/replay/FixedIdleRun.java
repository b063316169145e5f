package io.hpcscale.simulator.replay;

import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.simulator.SimJob;
import io.hpcscale.simulator.SimulatedScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The peers' policy: start nodes for the jobs the scheduler would start now if every node of the machine were up,
 * beyond those free or booting, and stop a node free for a fixed idle time. Slurm's power saving resumes the nodes its
 * scheduler allocates at once and suspends a node idle for {@code SuspendTime}; CycleCloud's autoscaler does the same at each pass of its loop (every 15 s for PBS)
 * with its idle time of 300 s. Neither drains: a free node is stopped the moment it is found idle long enough.
 */
final class FixedIdleRun extends PeerRun {
    private final String name;
    private final Duration period;
    private final Duration idleTime;
    /** When each node up was last seen become free. */
    private final Map<String, Instant> freeSince = new HashMap<>();
    /**
     * What EASY would allocate, worked out again only after a job was submitted, started or ended or an instance
     * changed: walking a queue of thousands at every event tripled the replay's time. Between changes the allocation
     * can only shrink (a later job's end passes its reservation), so the model may power up a node early, never late.
     */
    private int allocation;
    private boolean queueChanged = true;

    /** @param period how often the policy looks; zero for at every event, as Slurm's scheduler does */
    FixedIdleRun(String name, Duration period, Duration idleTime, SimulationSettings settings, List<SimJob> jobs,
            SettableClock clock) {
        super(settings, jobs, clock);
        this.name = name;
        this.period = period;
        this.idleTime = idleTime;
        cloud.addListener((p, instance, from, evicted, at) -> queueChanged |= evicted);
        scheduler.addListener(new SimulatedScheduler.Listener() {
            @Override
            public void jobStarted(SimJob job, List<String> nodes, Instant at) {
                queueChanged = true;
            }

            @Override
            public void jobFinished(SimJob job, Instant at) {
                queueChanged = true;
            }
        });
    }

    @Override
    void submitted(SimJob job) {
        queueChanged = true;
    }

    @Override
    String name() {
        return name;
    }

    @Override
    Instant nextPolicyEvent(Instant now) {
        Instant next = null;
        for (Instant since : freeSince.values()) {
            Instant due = since.plus(idleTime);
            next = next == null || due.isBefore(next) ? due : next;
        }
        if (next != null && !next.isAfter(now)) {
            next = now.plusMillis(1);
        }
        if (period.isZero()) {
            return next;
        }
        // Looking only at its ticks, the policy acts at the first one at or after what is due.
        Instant due = scheduler.queuedJobs() > 0 ? now.plusMillis(1) : next;
        return due == null ? null : tickAtOrAfter(due, origin, period);
    }

    @Override
    void act(Instant now) throws InterruptedException {
        List<Instance> instances;
        try {
            instances = provider.list();
        } catch (CloudException e) {
            throw new IllegalStateException("the simulated cloud could not list its own scale set", e);
        }
        Map<String, Instant> stillFree = new HashMap<>();
        for (Instance instance : instances) {
            if (instance.state() == PowerState.RUNNING && !scheduler.busy(instance.nodeName())) {
                stillFree.put(instance.nodeName(), freeSince.getOrDefault(instance.nodeName(), now));
            }
        }
        // Rebuilt from the listing, so that a node evicted or stopped while free is forgotten.
        freeSince.clear();
        freeSince.putAll(stillFree);
        if (!period.isZero() && !isTick(now, origin, period)) {
            return;
        }
        try {
            List<Instance> idle = instances.stream().filter(i -> freeSince.containsKey(i.nodeName())
                    && !freeSince.get(i.nodeName()).plus(idleTime).isAfter(now)).toList();
            if (!idle.isEmpty()) {
                provider.stop(idle, StopAction.DEALLOCATE);
                idle.forEach(i -> freeSince.remove(i.nodeName()));
            }
            long free = freeSince.size();
            long booting = instances.stream().filter(i -> i.state() == PowerState.STARTING).count();
            if (queueChanged) {
                allocation = scheduler.nodesEasyWouldAllocate(settings.maxNodes(), now);
                queueChanged = false;
            }
            long wanted = allocation - free - booting;
            if (wanted > 0) {
                List<Instance> stopped = provider.list().stream().filter(i -> i.state() == PowerState.STOPPED)
                        .limit(wanted).toList();
                if (!stopped.isEmpty()) {
                    provider.start(stopped);
                }
            }
        } catch (CloudException e) {
            // A quota refusal leaves the nodes as they are until the next pass, as both peers do.
        }
    }
}
