package io.hpcscale.simulator.replay;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Durations;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.simulator.SimJob;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One queue served by one VM size against the same queue served by several, each job going to the cheapest that
 * fits it: hpcscale replays the trace once per size alone and once with every size, on nodes given whole to each job
 * (a job of P processors takes ceil(P / CPUs) nodes of one size, as a scheduler with exclusive nodes places it). Each
 * size's pool may run {@code cpuQuota} CPUs (by default as many as the trace's machine has), as each VM family has
 * its own quota on Azure, so every configuration can run every job.
 */
public final class SizesComparison {
    private static final Instant ORIGIN = Instant.parse("2026-01-01T00:00:00Z");

    /** One VM size: its CPUs and what one instance costs per hour. */
    public record VmSize(int cpus, double pricePerHour) {
        public VmSize {
            if (cpus < 1 || pricePerHour < 0) {
                throw new IllegalArgumentException("a size needs at least one CPU and a price of at least 0");
            }
        }

        /** {@code 16:0.677}: 16 CPUs at 0.677 an hour. */
        public static VmSize parse(String text) {
            String[] parts = text.strip().split(":");
            try {
                if (parts.length == 2) {
                    return new VmSize(Integer.parseInt(parts[0].strip()), Double.parseDouble(parts[1].strip()));
                }
            } catch (NumberFormatException e) {
                // Said below, with the form expected.
            }
            throw new IllegalArgumentException("--sizes: '" + text + "' is not CPUS:PRICE (e.g. 16:0.677)");
        }

        String poolName() {
            return "size" + cpus;
        }
    }

    /**
     * One configuration's figures.
     *
     * @param hoursBySize instance-hours of each size's pool
     */
    public record Row(String name, double cpuHours, double cost, Map<Integer, Double> hoursBySize,
            double meanWaitSeconds, double p95WaitSeconds, int jobsCompleted, int violations) {
    }

    /**
     * @param lowerBoundCpuHours the jobs' own CPU-hours: what exactly-fitting nodes would run
     * @param lowerBoundCost     those CPU-hours at the cheapest price per CPU
     */
    public record Outcome(List<Row> rows, int jobs, int skippedTooWide, Duration span, int cpuQuota,
            double lowerBoundCpuHours, double lowerBoundCost) {
        public Outcome {
            rows = List.copyOf(rows);
        }
    }

    private SizesComparison() {
    }

    /** @param cpuQuota CPUs each size's pool may run at once, or null for the trace's machine's */
    public static Outcome run(SwfTrace trace, SimulationSettings settings, Simulation.Selection selection,
            List<VmSize> sizes, Integer cpuQuota) throws InterruptedException {
        if (sizes.size() < 2) {
            throw new IllegalArgumentException("--sizes needs two sizes at least to compare with one");
        }
        if (sizes.stream().map(VmSize::cpus).distinct().count() < sizes.size()) {
            throw new IllegalArgumentException("--sizes names two sizes of the same CPUs: give each size once");
        }
        List<VmSize> byPrice = sizes.stream().sorted(Comparator.comparingDouble(VmSize::pricePerHour)).toList();
        int machineCpus = settings.maxNodes() * settings.cpusPerNode();
        int quota = cpuQuota == null ? machineCpus : cpuQuota;
        if (quota < machineCpus) {
            throw new IllegalArgumentException("--size-quota " + quota + " is below the trace's machine of "
                    + machineCpus + " CPUs: its widest jobs could never run");
        }
        int smallest = sizes.stream().mapToInt(VmSize::cpus).min().orElseThrow();
        List<SimJob> jobs = new ArrayList<>();
        int tooWide = 0;
        long first = -1;
        double cpuSeconds = 0;
        for (SwfTrace.TraceJob job : trace.jobs()) {
            if ((selection.from() != null && job.submit() < selection.from().toSeconds())
                    || (selection.to() != null && job.submit() > selection.to().toSeconds())) {
                continue;
            }
            if (selection.limit() != null && jobs.size() + tooWide >= selection.limit()) {
                break;
            }
            if (job.processors() > machineCpus) {
                tooWide++;
                continue;
            }
            first = first < 0 ? job.submit() : first;
            int cpus = Math.max(1, job.processors());
            cpuSeconds += (double) cpus * job.runtime();
            jobs.add(new SimJob("job-" + job.id(), byPrice.get(0).poolName(), ORIGIN.plusSeconds(job.submit() - first),
                    (cpus + smallest - 1) / smallest, Duration.ofSeconds(job.runtime()),
                    Duration.ofSeconds(job.requestedTime()), false, cpus));
        }
        if (jobs.isEmpty()) {
            throw new IllegalArgumentException("no job of the trace is left to replay (check --limit, --from, --to, "
                    + "--max-nodes and --cpus-per-node)");
        }
        List<Row> rows = new ArrayList<>();
        for (VmSize size : sizes) {
            List<SimJob> queued = jobs.stream().map(j -> new SimJob(j.id(), size.poolName(), j.submitAt(),
                    j.nodesOf(size.cpus()), j.runtime(), j.requestedTime(), false, j.cpus())).toList();
            rows.add(replay(size.cpus() + " CPUs only", settings, queued, List.of(size), quota));
        }
        rows.add(replay("all " + sizes.size() + " sizes, cheapest first", settings, jobs, byPrice, quota));
        double cheapestPerCpu = sizes.stream().mapToDouble(s -> s.pricePerHour() / s.cpus()).min().orElseThrow();
        Duration span = Duration.between(jobs.get(0).submitAt(), jobs.get(jobs.size() - 1).submitAt());
        return new Outcome(rows, jobs.size(), tooWide, span, quota, cpuSeconds / 3600,
                cpuSeconds / 3600 * cheapestPerCpu);
    }

    private static Row replay(String name, SimulationSettings settings, List<SimJob> jobs, List<VmSize> sizes,
            int cpuQuota) throws InterruptedException {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < sizes.size(); i++) {
            VmSize size = sizes.get(i);
            String key = "pool." + size.poolName() + ".";
            values.put(key + "provider", "simulated");
            values.put(key + "cpus", Integer.toString(size.cpus()));
            values.put(key + "memoryMb", "4096");
            values.put(key + "max", Integer.toString(Math.max(1, cpuQuota / size.cpus())));
            values.put(key + "min", "0");
            values.put(key + "idleTimeout", Durations.format(settings.idleTimeout()));
            values.put(key + "maxStartPerCycle", Integer.toString(settings.maxStartPerCycle()));
            values.put(key + "maxStopPerCycle", Integer.toString(settings.maxStopPerCycle()));
            values.put(key + "pricePerHour", Double.toString(size.pricePerHour()));
            if (i == 0 && sizes.size() > 1) {
                values.put(key + "fallbacks", String.join(", ", sizes.subList(1, sizes.size()).stream()
                        .map(VmSize::poolName).toList()));
            }
        }
        Map<String, PoolConfig> configs = PoolConfigs.fromSettings(new ConfigLoader(ConfigCatalog.installed())
                .fromMap(values, Programs.SCALER));
        List<PoolConfig> pools = sizes.stream().map(size -> configs.get(size.poolName())).toList();
        int instances = pools.stream().mapToInt(PoolConfig::max).max().orElseThrow();
        HpcscaleRun run = new HpcscaleRun(settings.forSizes(instances), jobs, new SettableClock(ORIGIN), pools,
                name);
        PolicyResult result = run.run();
        Map<Integer, Double> hours = new LinkedHashMap<>();
        double cpuHours = 0;
        double cost = 0;
        for (VmSize size : sizes) {
            double h = run.instanceHours(size.poolName());
            hours.put(size.cpus(), h);
            cpuHours += h * size.cpus();
            cost += h * size.pricePerHour();
        }
        return new Row(name, cpuHours, cost, hours, result.meanWaitSeconds(), result.p95WaitSeconds(),
                result.jobsCompleted(), result.violations().size());
    }

    /** The figures as a table, with the lower bound. */
    public static String text(Outcome outcome) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-28s %12s %12s %10s %10s %8s  %s%n", "configuration", "CPU-hours",
                "cost", "mean wait", "p95 wait", "jobs", "instance-hours by size"));
        for (Row row : outcome.rows()) {
            StringBuilder hours = new StringBuilder();
            row.hoursBySize().forEach((cpus, h) -> hours.append(String.format(Locale.ROOT, "%d CPUs %.1f  ", cpus,
                    h)));
            out.append(String.format(Locale.ROOT, "%-28s %12.1f %12.2f %10s %10s %8d  %s%s%n", row.name(),
                    row.cpuHours(), row.cost(), DurationText.of(row.meanWaitSeconds()),
                    DurationText.of(row.p95WaitSeconds()), row.jobsCompleted(), hours.toString().strip(),
                    row.violations() > 0 ? "  VIOLATIONS: " + row.violations() : ""));
        }
        out.append(String.format(Locale.ROOT, "%-28s %12.1f %12.2f%n", "jobs' own CPU-hours (bound)",
                outcome.lowerBoundCpuHours(), outcome.lowerBoundCost()));
        return out.toString();
    }

    /** The figures as JSON. */
    public static String json(Outcome outcome) {
        StringBuilder out = new StringBuilder("{\"jobs\":").append(outcome.jobs()).append(",\"cpuQuotaPerSize\":")
                .append(outcome.cpuQuota()).append(",\"lowerBoundCpuHours\":")
                .append(round(outcome.lowerBoundCpuHours())).append(",\"lowerBoundCost\":")
                .append(round(outcome.lowerBoundCost())).append(",\"configurations\":[");
        for (int i = 0; i < outcome.rows().size(); i++) {
            Row row = outcome.rows().get(i);
            out.append(i == 0 ? "" : ",").append("{\"name\":\"").append(row.name()).append("\",\"cpuHours\":")
                    .append(round(row.cpuHours())).append(",\"cost\":").append(round(row.cost()))
                    .append(",\"meanWaitSeconds\":").append(round(row.meanWaitSeconds()))
                    .append(",\"p95WaitSeconds\":").append(round(row.p95WaitSeconds()))
                    .append(",\"jobsCompleted\":").append(row.jobsCompleted()).append(",\"violations\":")
                    .append(row.violations()).append(",\"instanceHoursBySize\":{");
            int j = 0;
            for (Map.Entry<Integer, Double> h : row.hoursBySize().entrySet()) {
                out.append(j++ == 0 ? "" : ",").append('"').append(h.getKey()).append("\":")
                        .append(round(h.getValue()));
            }
            out.append("}}");
        }
        return out.append("]}\n").toString();
    }

    private static String round(double value) {
        return String.format(Locale.ROOT, "%.3f", value);
    }
}
