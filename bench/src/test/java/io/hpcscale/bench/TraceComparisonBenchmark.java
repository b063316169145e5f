package io.hpcscale.bench;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.simulator.replay.PolicyResult;
import io.hpcscale.simulator.replay.Simulation;
import io.hpcscale.simulator.replay.SimulationSettings;
import io.hpcscale.simulator.replay.SwfTrace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every policy on the first 30 days of every trace (3 on a machine of over 5,000 nodes), as its header describes the
 * machine, with the simulate command's defaults: the comparison table of docs/simulation.md, and how long each replay
 * takes and how much heap it needs. The Parallel Workloads Archive logs are read from {@code ../shared/traces} (not
 * part of the project; docs/simulation.md says where to download them), the Lublin model trace from the project's
 * {@code traces}. Select some with {@code -Dbench.traces=KTH,SDSC-SP2} (file names starting so).
 */
class TraceComparisonBenchmark {
    private static final Path SHARED = Path.of("..", "..", "shared", "traces");
    private static final Path LUBLIN = Path.of("..", "traces", "lublin_256.swf");
    private static final Duration FIRST = Duration.ofDays(30);
    /**
     * CEA Curie's 5,544 nodes: 30 days did not get through the first policy in 8.5 CPU-minutes, as each cycle does
     * work in proportion to the pool; its first 3 days take under two minutes.
     */
    private static final int LARGE_MACHINE = 5_000;
    private static final Duration FIRST_ON_A_LARGE_MACHINE = Duration.ofDays(3);

    @Test
    void everyPolicyOnTheFirstThirtyDaysOfEveryTrace() throws Exception {
        List<Path> traces = traces();
        assertFalse(traces.isEmpty(), "no trace found in " + SHARED.toAbsolutePath().normalize() + " (see "
                + "docs/simulation.md for where to download them) nor " + LUBLIN.toAbsolutePath().normalize());
        Measure.report("machine: " + Measure.machine());
        for (Path file : traces) {
            SwfTrace trace = SwfTrace.read(file);
            SimulationSettings settings = SimulationSettings.defaults(trace.maxNodes())
                    .withCpusPerNode(trace.processorsPerNode());
            long begin = System.nanoTime();
            Simulation.Outcome outcome;
            double peakMb;
            try (Measure.HeapWatch heap = Measure.watchHeap()) {
                outcome = Simulation.run(trace, settings, new Simulation.Selection(null, null,
                        settings.maxNodes() > LARGE_MACHINE ? FIRST_ON_A_LARGE_MACHINE : FIRST));
                peakMb = heap.peakMb();
            }
            double seconds = (System.nanoTime() - begin) / 1e9;
            String name = file.getFileName().toString();
            Measure.report(String.format(Locale.ROOT, "traces: %s: %d jobs on %d nodes of %d processors (%d skipped: "
                    + "unknown run time; %d wider than the machine), replayed in %.1f s, heap at most %.0f MB", name,
                    outcome.jobs(), settings.maxNodes(), settings.cpusPerNode(), outcome.skippedUnknownRuntime(),
                    outcome.skippedTooWide(), seconds, peakMb));
            PolicyResult oracle = outcome.results().stream().filter(r -> r.name().equals("oracle")).findFirst()
                    .orElseThrow();
            for (PolicyResult result : outcome.results()) {
                if (result.name().startsWith("hpcscale")) {
                    assertTrue(result.violations().isEmpty(), name + " " + result.name() + ": "
                            + result.violations());
                }
                Measure.report(String.format(Locale.ROOT, "traces: %s %-17s node-hours %.3f x oracle; wait mean %.0f "
                        + "s, median %.0f s, p95 %.0f s; bounded slowdown %.2f; jobs done %d", name, result.name(),
                        result.nodeHours() / oracle.nodeHours(), result.meanWaitSeconds(),
                        result.medianWaitSeconds(), result.p95WaitSeconds(), result.meanBoundedSlowdown(),
                        result.jobsCompleted()));
            }
        }
    }

    private static List<Path> traces() throws IOException {
        List<Path> all = new ArrayList<>();
        if (Files.isDirectory(SHARED)) {
            try (Stream<Path> files = Files.list(SHARED)) {
                files.filter(f -> f.getFileName().toString().matches(".*\\.swf(\\.gz)?")).sorted().forEach(all::add);
            }
        }
        if (all.stream().noneMatch(f -> f.getFileName().equals(LUBLIN.getFileName()))) {
            all.add(LUBLIN);
        }
        String only = System.getProperty("bench.traces", "");
        if (only.isBlank()) {
            return all;
        }
        List<String> prefixes = List.of(only.split(","));
        return all.stream().filter(f -> prefixes.stream().anyMatch(p -> f.getFileName().toString()
                .startsWith(p.trim()))).toList();
    }
}
