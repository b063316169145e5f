package io.hpcscale.simulator.replay;

import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.simulator.SimJob;
import io.hpcscale.simulator.SimulatedScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * One policy replaying a workload on a simulated scheduler and cloud. The clock jumps from event to event: a
 * submission, a job's end, an instance finishing its boot, a Spot eviction, or a moment the policy asks for. The
 * same workload, seed and settings always give the same result.
 */
abstract class PolicyRun {
    /**
     * A replay whose jobs never all finish must still end: jobs evicted faster than they can run restart forever.
     * It gives up this many times the longest job after the last submission (and at least a few days later).
     */
    private static final int GIVE_UP_AFTER_LONGEST_JOBS = 20;
    private static final Duration GIVE_UP_AT_LEAST = Duration.ofDays(7);

    protected final SimulationSettings settings;
    protected final List<SimJob> jobs;
    protected final SettableClock clock;
    protected final Random random;
    private Instant nextEviction;
    private int evictionRateFor = -1;
    private final List<PolicyResult.Sample> samples = new ArrayList<>();
    private int peak;

    PolicyRun(SimulationSettings settings, List<SimJob> jobs, SettableClock clock) {
        this.settings = settings;
        this.jobs = jobs;
        this.clock = clock;
        this.random = new Random(settings.seed());
    }

    abstract String name();

    /** Most nodes the policy can ever have up: jobs wider than this can never run under it. */
    abstract int capacity();

    abstract SimulatedCloud cloud();

    abstract SimulatedScheduler scheduler();

    /** The next moment the policy wants to act, strictly after {@code now}, or null. */
    abstract Instant nextPolicyEvent(Instant now);

    /** Acts at {@code now} if it is one of its moments; called at every event. */
    abstract void act(Instant now) throws InterruptedException;

    /** Whether, once every job has finished, the policy has come to rest (back to its min). */
    abstract boolean settled();

    /** Called when a job is submitted. */
    void submitted(SimJob job) {
    }

    PolicyResult run() throws InterruptedException {
        Instant origin = clock.instant();
        Duration longest = jobs.stream().map(SimJob::runtime).max(Duration::compareTo).orElse(Duration.ZERO);
        Duration grace = longest.multipliedBy(GIVE_UP_AFTER_LONGEST_JOBS);
        Instant giveUp = jobs.get(jobs.size() - 1).submitAt()
                .plus(grace.compareTo(GIVE_UP_AT_LEAST) > 0 ? grace : GIVE_UP_AT_LEAST);
        long runnable = jobs.stream().filter(j -> j.nodes() <= capacity()).count();
        int next = 0;
        while (true) {
            Instant now = clock.instant();
            while (next < jobs.size() && !jobs.get(next).submitAt().isAfter(now)) {
                SimJob job = jobs.get(next++);
                scheduler().submit(job);
                submitted(job);
            }
            scheduler().step();
            evictIfDue(now);
            act(now);
            sample(origin, now);
            boolean done = next == jobs.size() && scheduler().finishedJobs().size() >= runnable;
            if ((done && settled()) || now.isAfter(giveUp)) {
                break;
            }
            Instant upcoming = earliest(next < jobs.size() ? jobs.get(next).submitAt() : null,
                    scheduler().nextJobEnd(), cloud().nextBootCompletion(), nextPolicyEvent(now), nextEviction);
            if (upcoming == null) {
                break;
            }
            clock.set(upcoming.isAfter(now) ? upcoming : now.plusMillis(1));
        }
        return result(origin);
    }

    private static Instant earliest(Instant... times) {
        Instant best = null;
        for (Instant t : times) {
            if (t != null && (best == null || t.isBefore(best))) {
                best = t;
            }
        }
        return best;
    }

    /** Spot evictions as a Poisson process over the running instances; resampled when their number changes. */
    private void evictIfDue(Instant now) {
        if (settings.evictionsPerInstanceHour() <= 0) {
            return;
        }
        List<Instance> running = cloud().instances(Simulation.POOL).stream()
                .filter(i -> i.state() == PowerState.RUNNING).toList();
        if (nextEviction != null && !nextEviction.isAfter(now) && !running.isEmpty()) {
            cloud().evict(Simulation.POOL, running.get(random.nextInt(running.size())).id());
            nextEviction = null;
            running = cloud().instances(Simulation.POOL).stream().filter(i -> i.state() == PowerState.RUNNING)
                    .toList();
        }
        if (running.size() != evictionRateFor || nextEviction == null) {
            evictionRateFor = running.size();
            if (running.isEmpty()) {
                nextEviction = null;
                return;
            }
            double perSecond = settings.evictionsPerInstanceHour() * running.size() / 3600.0;
            double seconds = -Math.log(1 - random.nextDouble()) / perSecond;
            nextEviction = now.plusMillis(Math.max(1, (long) (seconds * 1000)));
        }
    }

    private void sample(Instant origin, Instant now) {
        int active = cloud().activeInstances();
        int demanded = scheduler().nodesDemanded();
        peak = Math.max(peak, active);
        if (!samples.isEmpty()) {
            PolicyResult.Sample last = samples.get(samples.size() - 1);
            if (last.active() == active && last.demanded() == demanded) {
                return;
            }
        }
        samples.add(new PolicyResult.Sample(Duration.between(origin, now).toMillis() / 1000.0, active, demanded));
    }

    private PolicyResult result(Instant origin) {
        SimulatedScheduler scheduler = scheduler();
        Map<String, SimJob> byId = new HashMap<>();
        jobs.forEach(j -> byId.put(j.id(), j));
        List<Double> waits = new ArrayList<>();
        double slowdowns = 0;
        for (Map.Entry<String, Duration> wait : scheduler.waits().entrySet()) {
            double seconds = wait.getValue().toMillis() / 1000.0;
            waits.add(seconds);
            slowdowns += boundedSlowdown(seconds, byId.get(wait.getKey()).runtime().toSeconds());
        }
        Collections.sort(waits);
        double busySeconds = 0;
        for (SimJob job : scheduler.finishedJobs()) {
            busySeconds += (double) job.nodes() * job.runtime().toSeconds();
        }
        double nodeHours = cloud().instanceHours();
        return new PolicyResult(name(), nodeHours, Math.max(0, nodeHours - busySeconds / 3600.0), mean(waits),
                percentile(waits, 0.5), percentile(waits, 0.95), waits.isEmpty() ? 0 : slowdowns / waits.size(),
                cloud().starts(), cloud().stops(), peak, scheduler.finishedJobs().size(), scheduler.violations(),
                cloud().evictions(), samples, waits);
    }

    /** The usual bounded slowdown, with 10 s as the bound that keeps very short jobs from dominating. */
    static double boundedSlowdown(double waitSeconds, double runSeconds) {
        return Math.max(1, (waitSeconds + runSeconds) / Math.max(runSeconds, 10));
    }

    static double mean(List<Double> values) {
        return values.isEmpty() ? 0 : values.stream().mapToDouble(Double::doubleValue).sum() / values.size();
    }

    /** Nearest-rank percentile of sorted values. */
    static double percentile(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int rank = (int) Math.ceil(p * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    /** The first tick of a cadence ({@code origin + k × interval}) strictly after {@code now}. */
    static Instant tickAfter(Instant now, Instant origin, Duration interval) {
        long elapsed = Duration.between(origin, now).toMillis();
        long step = interval.toMillis();
        long k = elapsed < 0 ? 0 : elapsed / step + 1;
        return origin.plusMillis(k * step);
    }

    /** The first tick at or after {@code time}. */
    static Instant tickAtOrAfter(Instant time, Instant origin, Duration interval) {
        long elapsed = Duration.between(origin, time).toMillis();
        long step = interval.toMillis();
        long k = elapsed <= 0 ? 0 : (elapsed + step - 1) / step;
        return origin.plusMillis(k * step);
    }

    static boolean isTick(Instant now, Instant origin, Duration interval) {
        long elapsed = Duration.between(origin, now).toMillis();
        return elapsed >= 0 && elapsed % interval.toMillis() == 0;
    }
}
