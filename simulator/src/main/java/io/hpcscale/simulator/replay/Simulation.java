package io.hpcscale.simulator.replay;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.simulator.SimJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Replays a workload through each policy on its own simulated cluster and clock, and computes the oracle bound:
 * every job's node-seconds and nothing else, each job waiting only for its nodes to boot.
 */
public final class Simulation {
    static final String POOL = "sim";
    /** hpcscale with {@code idlePolicy = adaptive}. */
    static final String ADAPTIVE = "hpcscale-adaptive";
    /**
     * Slurm's power saving as sites configure it: {@code SuspendTime=300}, the value the peers converged on (Slurm
     * itself leaves power saving off until SuspendTime is set; Azure's CycleCloud Slurm and the notes both give 300).
     */
    static final Duration SLURM_SUSPEND_TIME = Duration.ofSeconds(300);
    /** CycleCloud's defaults: an idle time of 300 s, and its PBS autoscaler's 15 s loop. */
    static final Duration CYCLECLOUD_IDLE = Duration.ofSeconds(300);
    static final Duration CYCLECLOUD_PERIOD = Duration.ofSeconds(15);
    /** Where a replay starts when the trace does not say when its machine's clock started. */
    private static final Instant ORIGIN = Instant.parse("2026-01-01T00:00:00Z");

    /** What the replay produced, and what it had to leave out of the trace. */
    public record Outcome(List<PolicyResult> results, int jobs, int skippedUnknownRuntime, int skippedTooWide,
            Duration span) {
        public Outcome {
            results = List.copyOf(results);
        }
    }

    /**
     * Which part of the trace to replay: the first {@code limit} jobs submitted within {@code from}..{@code to}, counted
     * from the trace's first submission.
     */
    public record Selection(Integer limit, Duration from, Duration to) {
        public static Selection all() {
            return new Selection(null, null, null);
        }
    }

    private Simulation() {
    }

    public static Outcome run(SwfTrace trace, SimulationSettings settings, Selection selection)
            throws InterruptedException {
        List<SimJob> jobs = new ArrayList<>();
        int tooWide = 0;
        long first = -1;
        // Counted from the first submission: some logs start their clock well before it (LLNL Atlas by 37 days).
        long origin = trace.jobs().isEmpty() ? 0 : trace.jobs().get(0).submit();
        for (SwfTrace.TraceJob job : trace.jobs()) {
            long into = job.submit() - origin;
            if ((selection.from() != null && into < selection.from().toSeconds())
                    || (selection.to() != null && into > selection.to().toSeconds())) {
                continue;
            }
            if (selection.limit() != null && jobs.size() + tooWide >= selection.limit()) {
                break;
            }
            int nodes = (job.processors() + settings.cpusPerNode() - 1) / settings.cpusPerNode();
            if (nodes > settings.maxNodes()) {
                tooWide++;
                continue;
            }
            first = first < 0 ? job.submit() : first;
            jobs.add(new SimJob("job-" + job.id(), POOL, start(trace, first).plusSeconds(job.submit() - first), nodes,
                    Duration.ofSeconds(job.runtime()), Duration.ofSeconds(job.requestedTime()), false));
        }
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("no job of the trace is left to replay (check --limit, --from, --to, "
                    + "--max-nodes and --cpus-per-node)");
        }
        Instant replayStart = jobs.get(0).submitAt();
        String zone = settings.warmScheduleZone() != null ? settings.warmScheduleZone()
                : trace.zone() != null ? trace.zone().getId() : "UTC";
        List<PolicyResult> results = new ArrayList<>();
        results.add(new HpcscaleRun(settings, jobs, new SettableClock(replayStart), pool(settings, zone)).run());
        if (settings.fixedTarget() == null) {
            // A pool that keeps a fixed count has no idle timeout to adapt.
            results.add(new HpcscaleRun(settings, jobs, new SettableClock(replayStart),
                    List.of(adaptivePool(settings, zone)), ADAPTIVE).run());
        }
        results.add(new PintaScalerRun(settings, jobs, new SettableClock(replayStart)).run());
        results.add(new FixedIdleRun("slurm", Duration.ZERO, SLURM_SUSPEND_TIME, settings, jobs,
                new SettableClock(replayStart)).run());
        results.add(new FixedIdleRun("cyclecloud", CYCLECLOUD_PERIOD, CYCLECLOUD_IDLE, settings, jobs,
                new SettableClock(replayStart)).run());
        for (int size : settings.staticSizes()) {
            results.add(new StaticRun(settings, jobs, new SettableClock(replayStart), size).run());
        }
        results.add(oracle(jobs, settings));
        Duration span = Duration.between(jobs.get(0).submitAt(), jobs.get(jobs.size() - 1).submitAt());
        return new Outcome(results, jobs.size(), trace.skippedUnknownRuntime(), tooWide, span);
    }

    /**
     * When the first replayed job was submitted: on the machine's own clock where the trace says when it started
     * ({@code UnixStartTime}), so that a warm schedule's working hours are the machine's.
     */
    private static Instant start(SwfTrace trace, long firstSubmit) {
        return trace.startTime() == null ? ORIGIN : trace.startTime().plusSeconds(firstSubmit);
    }

    /**
     * hpcscale's pool for the replay: the settings' step limits, idle timeout and warm nodes on the trace's node
     * shape, its warm schedule read in {@code zone}.
     */
    static PoolConfig pool(SimulationSettings settings, String zone) {
        return PoolConfigs.withDefaults(POOL, new VmShape(settings.cpusPerNode(), 4096, 0), settings.maxNodes(),
                poolSettings(settings, zone));
    }

    /** hpcscale's pool with its idle timeout adaptive between the settings' bounds. */
    static PoolConfig adaptivePool(SimulationSettings settings, String zone) {
        Map<String, String> values = poolSettings(settings, zone);
        values.putAll(Map.of("idlePolicy", "adaptive",
                "idleTimeoutMin", Durations.format(settings.idleTimeoutMin()),
                "idleTimeoutMax", Durations.format(settings.idleTimeoutMax())));
        return PoolConfigs.withDefaults(POOL, new VmShape(settings.cpusPerNode(), 4096, 0), settings.maxNodes(),
                values);
    }

    private static Map<String, String> poolSettings(SimulationSettings settings, String zone) {
        Map<String, String> values = new HashMap<>(Map.of("min", Integer.toString(settings.min()),
                "idleTimeout", Durations.format(settings.idleTimeout()),
                "maxStartPerCycle", Integer.toString(settings.maxStartPerCycle()),
                "maxStopPerCycle", Integer.toString(settings.maxStopPerCycle()),
                "warm", Integer.toString(settings.warm()),
                "target", settings.fixedTarget() == null ? "demand" : "fixed",
                "stopAction", settings.resumeTimes() == null ? "deallocate" : "hibernate",
                "demand", settings.demand().setting(),
                // The simulated scheduler's backfilling plans as far ahead as its reservations go, with no window:
                // hpcscale's pool is set to match it, as docs/operations.md tells administrators to.
                "backfillWindow", "3650d"));
        if (settings.warmSchedule() != null) {
            values.put("warmSchedule", settings.warmSchedule());
            values.put("warmScheduleZone", zone);
        }
        return values;
    }

    /** The lower bound: node-hours are the jobs' own node-seconds; each job waits only for the boot. */
    static PolicyResult oracle(List<SimJob> jobs, SimulationSettings settings) {
        double boot = settings.bootTimes().mean().toMillis() / 1000.0;
        double nodeSeconds = 0;
        double slowdowns = 0;
        long nodes = 0;
        List<long[]> changes = new ArrayList<>();
        for (SimJob job : jobs) {
            nodeSeconds += (double) job.nodes() * job.runtime().toSeconds();
            slowdowns += PolicyRun.boundedSlowdown(boot, job.runtime().toSeconds());
            nodes += job.nodes();
            long start = job.submitAt().toEpochMilli() + (long) (boot * 1000);
            changes.add(new long[] {start, job.nodes()});
            changes.add(new long[] {start + job.runtime().toMillis(), -job.nodes()});
        }
        changes.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int running = 0;
        int peak = 0;
        for (long[] change : changes) {
            running += (int) change[1];
            peak = Math.max(peak, running);
        }
        List<Double> waits = jobs.stream().map(j -> boot).toList();
        return new PolicyResult("oracle", nodeSeconds / 3600, 0, boot, boot, boot, slowdowns / jobs.size(), nodes,
                nodes, peak, jobs.size(), List.of(), 0, List.of(), waits);
    }
}
