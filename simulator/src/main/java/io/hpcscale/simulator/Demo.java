package io.hpcscale.simulator;

import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.config.Durations;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.scaler.run.Outcome;
import io.hpcscale.scaler.run.ScalerEvent;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A whole small cluster on one machine, no Azure and no PBS: a simulated scheduler with a short generated workload,
 * the real agent framework and the real scaler, a SQLite store in a directory of its own, the simulated cloud, and a
 * compressed clock. It prints what happens as it happens, then a summary.
 */
public final class Demo {
    static final String POOL = "demo";
    private static final Duration TICK = Duration.ofSeconds(10);
    private static final Duration AGENT_EVERY = Duration.ofMinutes(2);
    private static final Duration SCALER_EVERY = Duration.ofMinutes(1);
    private static final Duration GIVE_UP_AFTER = Duration.ofHours(8);

    /**
     * @param speed simulated seconds per real second; 0 runs as fast as the machine can
     */
    public record Options(long seed, int jobs, double speed, Path directory) {
    }

    /** What the demo showed, for its summary and for the test that runs it in CI. */
    public record Result(int submitted, int finished, List<String> violations, long starts, long stops,
            int peakActive, int activeAtEnd, int min, Duration meanWait, Duration longestWait, double instanceHours,
            double jobNodeHours, Duration simulated, boolean completed) {
    }

    private final Options options;
    private final PrintStream out;
    /** The simulated clock starts now, so the store's timestamps and event ttls read true to an administrator. */
    private final Instant start = Instant.now().truncatedTo(ChronoUnit.MINUTES);
    private final PoolConfig pool = PoolConfigs.withDefaults(POOL, new VmShape(16, 65536, 0), 6);

    public Demo(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    public Result run() throws IOException, InterruptedException {
        Files.createDirectories(options.directory());
        Path database = options.directory().resolve("clusterload.db");
        Path config = writeConfig(database);
        SettableClock clock = new SettableClock(start);
        List<SimJob> workload = workload();
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(database, Duration.ofSeconds(10), clock)) {
            SimulatedCluster cluster = new SimulatedCluster(clock, store, new SimulatedCluster.Spec(List.of(pool), 8,
                    Duration.ofMinutes(3), Duration.ofMinutes(6), Duration.ofDays(1)));
            introduce(workload, database);
            follow(cluster, clock);
            int peak = 0;
            int next = 0;
            Instant nextAgent = start;
            Instant nextScaler = start.plusSeconds(30);
            long realStart = System.nanoTime();
            while (true) {
                Instant now = clock.instant();
                while (next < workload.size() && !workload.get(next).submitAt().isAfter(now)) {
                    SimJob job = workload.get(next++);
                    cluster.scheduler().submit(job);
                    say(now, "submitted   " + job.id() + ": " + job.nodes() + (job.nodes() == 1 ? " node" : " nodes")
                            + " for " + Durations.human(job.runtime()));
                }
                cluster.scheduler().step();
                if (!now.isBefore(nextAgent)) {
                    report(now, cluster.agentCycle());
                    nextAgent = nextAgent.plus(AGENT_EVERY);
                }
                if (!now.isBefore(nextScaler)) {
                    cluster.scalerCycle();
                    nextScaler = nextScaler.plus(SCALER_EVERY);
                }
                peak = Math.max(peak, cluster.cloud().activeInstances());
                boolean done = next == workload.size()
                        && cluster.scheduler().finishedJobs().size() == workload.size()
                        && cluster.cloud().activeInstances() == pool.min();
                if (done || Duration.between(start, now).compareTo(GIVE_UP_AFTER) > 0) {
                    return summarize(cluster, workload, peak, done, config, realStart);
                }
                pace();
                clock.advance(TICK);
            }
        }
    }

    private List<SimJob> workload() {
        Random random = new Random(options.seed());
        List<SimJob> jobs = new ArrayList<>();
        Instant at = start.plusSeconds(20);
        for (int i = 1; i <= options.jobs(); i++) {
            int roll = random.nextInt(10);
            int nodes = roll < 6 ? 1 : roll < 9 ? 2 : 3;
            Duration runtime = Duration.ofMinutes(4 + random.nextInt(12));
            jobs.add(new SimJob(String.format("job-%02d", i), POOL, at, nodes, runtime,
                    runtime.multipliedBy(3).dividedBy(2), false));
            at = at.plusSeconds(20 + random.nextInt(i % 8 == 0 ? 1500 : 200));
        }
        return jobs;
    }

    private void introduce(List<SimJob> workload, Path database) {
        out.println("hpcscale demo: one pool \"" + POOL + "\" of up to " + pool.max() + " instances (16 CPUs, 64 GiB), "
                + "min " + pool.min() + ", idle timeout " + Durations.format(pool.idleTimeout()) + ", instances boot in "
                + "3m");
        out.println("the agent reads the scheduler every 2m, the scaler plans every 1m; " + workload.size()
                + " jobs arrive over " + Durations.human(Duration.between(start,
                        workload.get(workload.size() - 1).submitAt()))
                + "; store: " + database);
        out.println();
    }

    private void follow(SimulatedCluster cluster, SettableClock clock) {
        cluster.scheduler().addListener(new SimulatedScheduler.Listener() {
            @Override
            public void jobStarted(SimJob job, List<String> nodes, Instant at) {
                say(at, "started     " + job.id() + " on " + String.join(",", nodes) + " after waiting "
                        + Durations.human(Duration.between(job.submitAt(), at)));
            }

            @Override
            public void jobFinished(SimJob job, Instant at) {
                say(at, "finished    " + job.id());
            }

            @Override
            public void nodeUp(String node, Instant at) {
                say(at, "node up     " + node + " booted and joined the scheduler");
            }

            @Override
            public void violation(String message, Instant at) {
                say(at, "VIOLATION   " + message);
            }
        });
        cluster.events().addListener(event -> say(event.at(), describe(event)));
    }

    private static String describe(ScalerEvent event) {
        String what = switch (event.kind()) {
            case CANCEL_DRAIN -> "scaler      cancel drain of " + String.join(",", event.instances());
            default -> "scaler      " + event.kind() + " " + String.join(",", event.instances());
        };
        String outcome = event.outcome().equals(Outcome.OK) || event.outcome().equals(Outcome.REFUSED) ? ""
                : " [" + event.outcome() + "]";
        return what.strip() + ": " + event.reason() + outcome;
    }

    private void report(Instant now, CycleReport report) {
        report.takenOffline().forEach(node -> say(now, "agent       took " + node + " offline (drain requested)"));
        report.broughtBack().forEach(node -> say(now, "agent       returned " + node + " to service"));
        if (!report.succeeded()) {
            say(now, "agent       cycle failed: " + report.error());
        }
    }

    private void say(Instant at, String line) {
        long seconds = Duration.between(start, at).toSeconds();
        out.printf("[%02d:%02d:%02d] %s%n", seconds / 3600, (seconds / 60) % 60, seconds % 60, line);
    }

    private void pace() throws InterruptedException {
        if (options.speed() > 0) {
            Thread.sleep((long) (TICK.toMillis() / options.speed()));
        }
    }

    private Result summarize(SimulatedCluster cluster, List<SimJob> workload, int peak, boolean completed,
            Path config, long realStart) {
        SimulatedScheduler scheduler = cluster.scheduler();
        List<Duration> waits = new ArrayList<>(scheduler.waits().values());
        Duration mean = waits.isEmpty() ? Duration.ZERO : waits.stream().reduce(Duration.ZERO, Duration::plus)
                .dividedBy(waits.size());
        Duration longest = waits.stream().max(Duration::compareTo).orElse(Duration.ZERO);
        double jobHours = workload.stream().mapToDouble(j -> j.nodes() * j.runtime().toSeconds() / 3600.0).sum();
        double instanceHours = cluster.cloud().instanceHours();
        Duration simulated = Duration.between(start, cluster.clock().instant());
        Result result = new Result(workload.size(), scheduler.finishedJobs().size(), scheduler.violations(),
                cluster.cloud().starts(), cluster.cloud().stops(), peak, cluster.cloud().activeInstances(),
                pool.min(), mean, longest, instanceHours, jobHours, simulated, completed);
        out.println();
        out.printf("Summary after %s of cluster time (%.0f s on this machine)%s%n", Durations.human(simulated),
                (System.nanoTime() - realStart) / 1e9, completed ? "" : ": GAVE UP before every job ran");
        out.printf("  jobs       %d submitted, %d finished, %d lost to a stopped instance%n", result.submitted(),
                result.finished(), result.violations().size());
        out.printf("  wait       mean %s, longest %s (instances take 3m to boot)%n", Durations.human(mean),
                Durations.human(longest));
        out.printf("  instances  %d started, %d stopped; at most %d running; %d running at the end (min %d)%n",
                result.starts(), result.stops(), peak, result.activeAtEnd(), pool.min());
        out.printf("  cost       %.1f instance-hours for %.1f node-hours of jobs (%.0f%% busy)%n", instanceHours,
                jobHours, instanceHours == 0 ? 0 : 100 * jobHours / instanceHours);
        out.printf("  store      inspect what the scaler saw: hpcscale-scaler documents --config %s --type "
                + "events%n", config);
        return result;
    }

    private Path writeConfig(Path database) throws IOException {
        Path file = options.directory().resolve("demo.properties");
        Files.writeString(file, """
                # Written by hpcscale-scaler demo: names the demo's store, so that `documents` can show it.
                store.sqlite.path = %s
                pool.demo.provider = simulated
                pool.demo.cpus = 16
                pool.demo.memoryMb = 65536
                pool.demo.max = 6
                """.formatted(database));
        return file;
    }
}
