package io.hpcscale.simulator.cli;

import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.config.Durations;
import io.hpcscale.common.logging.LogLevels;
import io.hpcscale.scaler.pool.DemandModel;
import io.hpcscale.simulator.replay.BootTimes;
import io.hpcscale.simulator.replay.DurationText;
import io.hpcscale.simulator.replay.NodeHourPrice;
import io.hpcscale.simulator.replay.Simulation;
import io.hpcscale.simulator.replay.SimulationReport;
import io.hpcscale.simulator.replay.SimulationSettings;
import io.hpcscale.simulator.replay.SizesComparison;
import io.hpcscale.simulator.replay.SwfTrace;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Replays a workload trace through the real agent framework and planner, and through the policies to compare:
 * PintaScaler's, fixed clusters, and the oracle bound. Needs no configuration.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class, name = "simulate",
        sortOptions = false, defaultValueProvider = PoolSettingDefaults.class, description = {"Replay a workload trace (Standard Workload Format) through hpcscale and "
                + "the policies it is compared with, and report node-hours and job waits."})
final class SimulateCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--trace", required = true, paramLabel = "FILE", description = "The trace, in SWF.")
    private Path trace;

    @Option(names = "--cpus-per-node", paramLabel = "N", description = "Processors of the trace per node (default: "
            + "the trace's MaxProcs over its MaxNodes, rounded up; 1 when its header does not give both).")
    private Integer cpusPerNode;

    @Option(names = "--max-nodes", paramLabel = "N", description = "Instances the pool has (default: the trace's "
            + "MaxNodes).")
    private Integer maxNodes;

    @Option(names = "--limit", paramLabel = "N", description = "Only the first N jobs.")
    private Integer limit;

    @Option(names = "--from", paramLabel = "DURATION", description = "Only jobs submitted at or after this time after "
            + "the trace's first submission (e.g. 10d).")
    private String from;

    @Option(names = "--to", paramLabel = "DURATION", description = "Only jobs submitted up to this time after the "
            + "trace's first submission (e.g. 30d).")
    private String to;

    @Option(names = "--boot-time", paramLabel = "TIME", defaultValue = "3m",
            description = "Instance boot time: fixed (3m) or uniform in a range (2m-6m) (default: ${DEFAULT-VALUE}).")
    private String bootTime;

    @Option(names = "--resume-time", paramLabel = "TIME", description = "hpcscale's pool stops its instances with "
            + "stopAction = hibernate, and a hibernated instance runs again after this time rather than a boot: "
            + "fixed (1m) or uniform in a range (40s-2m). Azure publishes no resume time: measure one. The other "
            + "policies deallocate, as they do (default: hpcscale deallocates too).")
    private String resumeTime;

    @Option(names = "--demand", paramLabel = "MODEL", defaultValue = "queued", description = "hpcscale's pool "
            + "setting demand: queued (every queued job that fits starts nodes) or backfill (only those the "
            + "scheduler's EASY backfilling would start with every node up, from the jobs' requested times) "
            + "(default: ${DEFAULT-VALUE}).")
    private String demand;

    @Option(names = "--evictions", paramLabel = "RATE", defaultValue = "0",
            description = "Spot evictions per running instance-hour (default: ${DEFAULT-VALUE}).")
    private double evictions;

    @Option(names = "--quota", paramLabel = "N", description = "Most instances active at once (default: none).")
    private Integer quota;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Seed of boot times and evictions (default: "
            + "${DEFAULT-VALUE}).")
    private long seed;

    @Option(names = "--static", paramLabel = "N", split = ",", description = "Fixed cluster sizes to compare "
            + "(default: the max nodes).")
    private List<Integer> staticSizes;

    @Option(names = "--target", paramLabel = "N", description = "hpcscale's pool keeps N instances (target = fixed), "
            + "whatever the jobs need, as a render farm's pool does; with --evictions this shows what an eviction rate "
            + "costs (default: demand).")
    private Integer target;

    @Option(names = "--min", paramLabel = "N", description = "hpcscale's pool min (default: ${DEFAULT-VALUE}).")
    private int min;

    @Option(names = "--idle-timeout", paramLabel = "DURATION", description = "hpcscale's pool idleTimeout "
            + "(default: ${DEFAULT-VALUE}).")
    private String idleTimeout;

    @Option(names = "--idle-min", paramLabel = "DURATION", description = "hpcscale's pool idleTimeoutMin, the "
            + "shortest its adaptive idle timeout may be (default: ${DEFAULT-VALUE}).")
    private String idleMin;

    @Option(names = "--idle-max", paramLabel = "DURATION", description = "hpcscale's pool idleTimeoutMax, the "
            + "longest its adaptive idle timeout may be (default: ${DEFAULT-VALUE}).")
    private String idleMax;

    @Option(names = "--warm", paramLabel = "N", description = "hpcscale's pool warm: started, idle nodes kept beyond "
            + "what queued jobs need (default: ${DEFAULT-VALUE}).")
    private int warm;

    @Option(names = "--warm-schedule", paramLabel = "WINDOWS", description = "hpcscale's pool warmSchedule: more "
            + "warm nodes in windows of the week, e.g. 'Mon-Fri 08:00-18:00 = 4', on the trace's wall clock (its "
            + "UnixStartTime and TimeZoneString headers).")
    private String warmSchedule;

    @Option(names = "--warm-schedule-zone", paramLabel = "ZONE", description = "hpcscale's pool warmScheduleZone "
            + "(default: the trace's TimeZoneString header, or UTC).")
    private String warmScheduleZone;

    @Option(names = "--max-start", paramLabel = "N", description = "hpcscale's pool maxStartPerCycle (default: "
            + "${DEFAULT-VALUE}).")
    private int maxStart;

    @Option(names = "--max-stop", paramLabel = "N", description = "hpcscale's pool maxStopPerCycle (default: "
            + "${DEFAULT-VALUE}).")
    private int maxStop;

    @Option(names = "--agent-quick-interval", paramLabel = "DURATION", description = "hpcscale's agent.quickInterval: "
            + "how soon a queue change or a drain request runs the agent's full read (0: only every 2m; default: "
            + "${DEFAULT-VALUE}).")
    private String agentQuickInterval;

    @Option(names = "--scaler-quick-interval", paramLabel = "DURATION", description = "hpcscale's "
            + "scaler.quickInterval: how soon the scaler follows a change the agent wrote (0: only every 1m; "
            + "default: ${DEFAULT-VALUE}).")
    private String scalerQuickInterval;

    @Option(names = "--price-per-hour", paramLabel = "AMOUNT", description = "What one instance costs per hour, in "
            + "any currency: the reports add each policy's cost, its node-hours times this (default: no cost).")
    private Double pricePerHour;

    @Option(names = "--sizes", paramLabel = "CPUS:PRICE", split = ",", description = "Compare VM sizes instead of "
            + "policies: hpcscale with one queue served by each size alone, and by all of them (each job to the "
            + "cheapest that fits), jobs taking whole nodes; e.g. 4:0.169,16:0.677,64:2.708 (CPUs and price per "
            + "hour). --quota, --target, --evictions and --static are not used then.")
    private List<String> sizes;

    @Option(names = "--size-quota", paramLabel = "CPUS", description = "With --sizes: CPUs each size may run at once, "
            + "as each VM family has its own quota (default: the trace's machine, --max-nodes x --cpus-per-node).")
    private Integer sizeQuota;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the figures of each policy as JSON.")
    private Path json;

    @Option(names = "--report", paramLabel = "FILE", description = "Write an HTML report with charts.")
    private Path report;

    @Override
    public Integer call() throws InterruptedException {
        LogLevels.apply("warn");
        requireWritable(json, "--json");
        requireWritable(report, "--report");
        SwfTrace workload;
        try {
            workload = SwfTrace.read(trace);
        } catch (NoSuchFileException e) {
            throw new ParameterException(spec.commandLine(), "--trace " + trace + " does not exist");
        } catch (IOException e) {
            return fail("the trace cannot be read: " + e.getMessage());
        }
        int nodes = maxNodes != null ? maxNodes : workload.maxNodes() != null ? workload.maxNodes() : 0;
        if (nodes <= 0) {
            throw new ParameterException(spec.commandLine(), "the trace has no MaxNodes header: give --max-nodes");
        }
        SimulationSettings settings;
        Simulation.Selection selection;
        NodeHourPrice price;
        try {
            price = pricePerHour == null ? null : new NodeHourPrice(pricePerHour);
            settings = new SimulationSettings(cpusPerNode != null ? cpusPerNode : workload.processorsPerNode(), nodes, BootTimes.parse(bootTime), evictions, quota, seed,
                    min, Durations.parse(idleTimeout), maxStart, maxStop, Duration.ofMinutes(2), Duration.ofMinutes(1),
                    Durations.parse(agentQuickInterval), Durations.parse(scalerQuickInterval), Duration.ofMinutes(10),
                    staticSizes == null ? List.of(nodes) : staticSizes, target, Durations.parse(idleMin),
                    Durations.parse(idleMax), warm, warmSchedule, warmScheduleZone,
                    resumeTime == null ? null : BootTimes.parse(resumeTime), demandModel());
            selection = new Simulation.Selection(limit, from == null ? null : Durations.parse(from),
                    to == null ? null : Durations.parse(to));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (sizes != null) {
            if (warm > 0 || warmSchedule != null || resumeTime != null) {
                // SizesComparison builds each size's pool without them: they would be left out without a word.
                throw new ParameterException(spec.commandLine(), "--warm, --warm-schedule and --resume-time do not "
                        + "apply to --sizes, which compares VM sizes on their jobs alone: leave them out");
            }
            return compareSizes(workload, settings, selection);
        }
        long begin = System.nanoTime();
        Simulation.Outcome outcome;
        try {
            outcome = Simulation.run(workload, settings, selection);
        } catch (IllegalArgumentException e) {
            return fail(e.getMessage());
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        String described = describe(settings);
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%s: %d jobs over %s; %s%n", trace.getFileName(), outcome.jobs(), DurationText.of(outcome.span()),
                described);
        if (outcome.skippedUnknownRuntime() > 0 || outcome.skippedTooWide() > 0) {
            out.printf("left out: %d jobs with unknown run time, %d wider than %d nodes%n",
                    outcome.skippedUnknownRuntime(), outcome.skippedTooWide(), nodes);
        }
        out.println();
        out.print(SimulationReport.text(outcome, price));
        int replays = outcome.results().size() - 1;
        out.printf("%nsimulated %d policies in %.1f s: %.0f jobs simulated per second%n", replays, seconds,
                outcome.jobs() * replays / seconds);
        try {
            if (json != null) {
                Files.writeString(json, SimulationReport.json(outcome, price));
                out.println("wrote " + json);
            }
            if (report != null) {
                Files.writeString(report, SimulationReport.html(outcome, price,
                        "hpcscale simulation of " + trace.getFileName(), described));
                out.println("wrote " + report);
            }
        } catch (IOException e) {
            out.flush();
            return fail("the figures above could not be written: " + e);
        }
        out.flush();
        return outcome.results().stream().anyMatch(r -> !r.violations().isEmpty() && r.name().startsWith("hpcscale"))
                ? 1 : 0;
    }

    private int compareSizes(SwfTrace workload, SimulationSettings settings, Simulation.Selection selection)
            throws InterruptedException {
        List<SizesComparison.VmSize> parsed;
        try {
            parsed = sizes.stream().map(SizesComparison.VmSize::parse).toList();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        long begin = System.nanoTime();
        SizesComparison.Outcome outcome;
        try {
            outcome = SizesComparison.run(workload, settings, selection, parsed, sizeQuota);
        } catch (IllegalArgumentException e) {
            return fail(e.getMessage());
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        PrintWriter out = spec.commandLine().getOut();
        out.printf("%s: %d jobs over %s from a machine of %d CPUs; each size up to %d CPUs at once; boot %s, idle "
                + "timeout %s%n", trace.getFileName(), outcome.jobs(), DurationText.of(outcome.span()),
                settings.maxNodes() * settings.cpusPerNode(), outcome.cpuQuota(), bootTime,
                Durations.format(settings.idleTimeout()));
        if (outcome.skippedTooWide() > 0) {
            out.printf("left out: %d jobs wider than the machine%n", outcome.skippedTooWide());
        }
        out.println();
        out.print(SizesComparison.text(outcome));
        out.printf("%nsimulated %d configurations in %.1f s%n", outcome.rows().size(), seconds);
        if (json != null) {
            try {
                Files.writeString(json, SizesComparison.json(outcome));
                out.println("wrote " + json);
            } catch (IOException e) {
                out.flush();
                return fail("the figures above could not be written: " + e);
            }
        }
        out.flush();
        return outcome.rows().stream().anyMatch(r -> r.violations() > 0) ? 1 : 0;
    }

    private static String quick(Duration interval) {
        return interval.isZero() ? "off" : Durations.format(interval);
    }

    /** Checked before the replay, which can take minutes, rather than after it. */
    private void requireWritable(Path file, String option) {
        Path parent = file == null ? null : file.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new ParameterException(spec.commandLine(), option + " " + file + ": the directory " + parent
                    + " does not exist");
        }
    }

    private int fail(String message) {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.commandLine().getCommandSpec().root().name() + " simulate: " + message);
        err.flush();
        return Cli.CONFIG_ERROR;
    }

    private DemandModel demandModel() {
        try {
            return DemandModel.fromSetting(demand);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--demand is '" + demand + "': give queued or backfill");
        }
    }

    private static String describe(SimulationSettings s) {
        return String.format(java.util.Locale.ROOT, "%d nodes of %d CPU(s), boot %s, evictions %s/instance-hour, "
                + "quota %s, seed %d; hpcscale: %s, min %d, idle timeout %s%s, step limits %d up / %d down, quick "
                + "checks %s agent / %s scaler",
                s.maxNodes(), s.cpusPerNode(), s.bootTimes(), s.evictionsPerInstanceHour(),
                s.quota() == null ? "none" : s.quota(), s.seed(),
                s.fixedTarget() == null ? "target from demand" : "fixed target " + s.fixedTarget(), s.min(),
                Durations.format(s.idleTimeout()),
                (s.warm() > 0 ? ", warm " + s.warm() : "") + (s.warmSchedule() == null ? ""
                        : ", warm schedule " + s.warmSchedule())
                        + (s.resumeTimes() == null ? "" : ", hibernates (resume " + s.resumeTimes() + ")")
                        + (s.demand() == DemandModel.QUEUED ? "" : ", demand " + s.demand().setting()),
                s.maxStartPerCycle(), s.maxStopPerCycle(), quick(s.agentQuickInterval()),
                quick(s.scalerQuickInterval()));
    }
}
