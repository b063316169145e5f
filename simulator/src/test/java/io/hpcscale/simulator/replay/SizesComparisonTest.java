package io.hpcscale.simulator.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.pool.DemandModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One queue served by one VM size against several, replayed through the real agent and scaler. */
class SizesComparisonTest {
    @TempDir
    Path dir;

    private static final List<SizesComparison.VmSize> SIZES = List.of(SizesComparison.VmSize.parse("4:0.169"),
            SizesComparison.VmSize.parse("16:0.677"), SizesComparison.VmSize.parse("64:2.708"));

    private static SimulationSettings settings() {
        return new SimulationSettings(1, 64, BootTimes.parse("3m"), 0, null, 1, 0, Duration.ofMinutes(5), 100, 100,
                Duration.ofMinutes(2), Duration.ofMinutes(1), Duration.ofSeconds(10), Duration.ofSeconds(5),
                Duration.ofMinutes(10), List.of(64), null, Duration.ofMinutes(1), Duration.ofMinutes(30), 0,
                null, null, null, DemandModel.QUEUED);
    }

    private SwfTrace trace() throws Exception {
        Path trace = dir.resolve("t.swf");
        // Serial jobs, a 12-processor job and a 48-processor job, spread over two hours.
        Files.write(trace, List.of("; MaxNodes: 64",
                "1 0 -1 3600 1 -1 -1 1 3600 -1 1 -1 -1 -1 0 -1 -1 -1",
                "2 60 -1 3600 1 -1 -1 1 3600 -1 1 -1 -1 -1 0 -1 -1 -1",
                "3 120 -1 1800 12 -1 -1 12 3600 -1 1 -1 -1 -1 0 -1 -1 -1",
                "4 3600 -1 1800 48 -1 -1 48 3600 -1 1 -1 -1 -1 0 -1 -1 -1",
                "5 7200 -1 600 1 -1 -1 1 600 -1 1 -1 -1 -1 0 -1 -1 -1"));
        return SwfTrace.read(trace);
    }

    @Test
    void severalSizesCostNoMoreThanTheBestSingleOneAndRunEveryJobSafely() throws Exception {
        SizesComparison.Outcome outcome = SizesComparison.run(trace(), settings(),
                new Simulation.Selection(null, null, null), SIZES, null);
        Map<String, SizesComparison.Row> rows = outcome.rows().stream()
                .collect(Collectors.toMap(SizesComparison.Row::name, Function.identity()));
        SizesComparison.Row all = rows.get("all 3 sizes, cheapest first");
        for (SizesComparison.Row row : outcome.rows()) {
            assertEquals(5, row.jobsCompleted(), row.name());
            assertEquals(0, row.violations(), row.name());
            assertTrue(row.cpuHours() >= outcome.lowerBoundCpuHours() - 1e-6, row.name());
        }
        assertTrue(all.cost() < rows.get("16 CPUs only").cost(), outcome.rows().toString());
        assertTrue(all.cost() < rows.get("64 CPUs only").cost(), outcome.rows().toString());
        assertTrue(all.hoursBySize().get(4) > 0, "the serial jobs ran on the smallest size");
        assertTrue(SizesComparison.json(outcome).startsWith("{\"jobs\":5,\"cpuQuotaPerSize\":64,"));
    }

    @Test
    void needsTwoSizesAndAQuotaTheWidestJobFits() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> SizesComparison.run(trace(), settings(),
                new Simulation.Selection(null, null, null), SIZES.subList(0, 1), null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SizesComparison.run(trace(),
                settings(), new Simulation.Selection(null, null, null), SIZES, 32));
        assertTrue(e.getMessage().startsWith("--size-quota 32 is below the trace's machine of 64 CPUs"),
                e.getMessage());
        assertEquals("--sizes: '16' is not CPUS:PRICE (e.g. 16:0.677)", assertThrows(IllegalArgumentException.class,
                () -> SizesComparison.VmSize.parse("16")).getMessage());
    }
}
