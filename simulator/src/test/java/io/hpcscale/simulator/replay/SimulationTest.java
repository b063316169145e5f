package io.hpcscale.simulator.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.scaler.pool.DemandModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulationTest {
    static final Path LUBLIN = Path.of("..", "traces", "lublin_256.swf");

    @TempDir
    Path dir;

    private static SimulationSettings settings(long seed, double evictions, String boot) {
        return new SimulationSettings(1, 256, BootTimes.parse(boot), evictions, null, seed, 0, Duration.ofMinutes(5),
                100, 10, Duration.ofMinutes(2), Duration.ofMinutes(1), Duration.ofSeconds(10), Duration.ofSeconds(5),
                Duration.ofMinutes(10), List.of(256, 64), null, Duration.ofMinutes(1), Duration.ofMinutes(30), 0,
                null, null, null, DemandModel.QUEUED);
    }

    private static boolean finishedAll(PolicyResult result, int jobs) {
        return result.jobsCompleted() == jobs;
    }

    /** {@code base} on a machine of 4 nodes, with a warm schedule and a resume time (either may be null). */
    private static SimulationSettings onFourNodes(SimulationSettings base, String warmSchedule, BootTimes resume) {
        return onFourNodes(base, warmSchedule, resume, DemandModel.QUEUED);
    }

    private static SimulationSettings onFourNodes(SimulationSettings base, String warmSchedule, BootTimes resume,
            DemandModel demand) {
        return new SimulationSettings(base.cpusPerNode(), 4, base.bootTimes(), 0, null, base.seed(), 0,
                base.idleTimeout(), base.maxStartPerCycle(), base.maxStopPerCycle(), base.agentInterval(),
                base.scalerInterval(), base.agentQuickInterval(), base.scalerQuickInterval(), base.pintaInterval(),
                List.of(4), null, base.idleTimeoutMin(), base.idleTimeoutMax(), 0, warmSchedule, null, resume, demand);
    }

    private static Map<String, PolicyResult> byName(Simulation.Outcome outcome) {
        return outcome.results().stream().collect(Collectors.toMap(PolicyResult::name, Function.identity()));
    }

    @Test
    void readsTheStandardWorkloadFormat() throws IOException {
        Path trace = dir.resolve("t.swf");
        Files.write(trace, List.of("; Version: 2", "; MaxNodes: 64", "",
                "1 100 -1 3600 16 -1 -1 -1 -1 -1 1 -1 -1 -1 0 -1 -1 -1",
                "2 50 -1 -1 4 -1 -1 -1 -1 -1 1 -1 -1 -1 0 -1 -1 -1",
                "3 200 -1 60 4 -1 -1 8 7200 -1 1 -1 -1 -1 0 -1 -1 -1"));
        SwfTrace swf = SwfTrace.read(trace);
        assertEquals(64, swf.maxNodes());
        assertEquals(1, swf.skippedUnknownRuntime());
        assertEquals(List.of(new SwfTrace.TraceJob(1, 100, 3600, 16, 3600), new SwfTrace.TraceJob(3, 200, 60, 8, 7200)),
                swf.jobs(), "requested processors and time win over allocated and run time");
        Files.write(trace, List.of("1 2 3"));
        IOException e = assertThrows(IOException.class, () -> SwfTrace.read(trace));
        assertTrue(e.getMessage().contains("line 1"), e.getMessage());
    }

    @Test
    void isTheSameForTheSameSeedAndDiffersForAnother() throws Exception {
        SwfTrace trace = SwfTrace.read(LUBLIN);
        Simulation.Selection first = new Simulation.Selection(150, null, null);
        String one = SimulationReport.json(Simulation.run(trace, settings(7, 0.001, "2m-5m"), first), null);
        String again = SimulationReport.json(Simulation.run(trace, settings(7, 0.001, "2m-5m"), first), null);
        String other = SimulationReport.json(Simulation.run(trace, settings(8, 0.001, "2m-5m"), first), null);
        assertEquals(one, again);
        assertNotEquals(one, other, "boot times and evictions come from the seed");
    }

    @Test
    void hpcscaleNeverUsesFewerNodeHoursThanTheOracleAndLosesNoJob() throws Exception {
        SwfTrace trace = SwfTrace.read(LUBLIN);
        for (int limit : List.of(50, 300)) {
            Map<String, PolicyResult> results = byName(Simulation.run(trace, settings(1, 0, "3m"),
                    new Simulation.Selection(limit, null, null)));
            PolicyResult hpcscale = results.get("hpcscale");
            PolicyResult oracle = results.get("oracle");
            assertTrue(hpcscale.nodeHours() >= oracle.nodeHours() - 1e-6, limit + ": " + hpcscale.nodeHours()
                    + " < " + oracle.nodeHours());
            assertTrue(hpcscale.idleNodeHours() >= 0);
            assertEquals(limit, hpcscale.jobsCompleted());
            assertTrue(hpcscale.violations().isEmpty(), hpcscale.violations().toString());
            for (PolicyResult r : results.values()) {
                if (finishedAll(r, limit)) {
                    assertTrue(r.nodeHours() >= oracle.nodeHours() - 1e-6, r.name());
                }
            }
            for (String peer : List.of("hpcscale-adaptive", "pintascaler", "slurm", "cyclecloud")) {
                assertEquals(limit, results.get(peer).jobsCompleted(), peer);
            }
            assertTrue(results.get("hpcscale-adaptive").violations().isEmpty());
            assertEquals(limit, results.get("static:256").jobsCompleted());
            PolicyResult small = results.get("static:64");
            assertTrue(small.stops() == 0 && small.peakNodes() == 64);
            assertTrue(small.jobsCompleted() < limit, "the trace has jobs wider than 64 nodes");
        }
    }

    @Test
    void spotEvictionsRequeueJobsButNeverCountAsHpcscaleStoppingThem() throws Exception {
        Map<String, PolicyResult> results = byName(Simulation.run(SwfTrace.read(LUBLIN), settings(3, 0.0005, "3m"),
                new Simulation.Selection(300, null, null)));
        PolicyResult hpcscale = results.get("hpcscale");
        assertTrue(hpcscale.evictions() > 0, "the rate must cause evictions");
        assertEquals(300, hpcscale.jobsCompleted(), "evicted jobs were requeued and finished on restarted nodes");
        assertTrue(hpcscale.violations().isEmpty());
    }

    @Test
    void aFixedTargetKeepsItsCountThroughEvictionsAndPaysForThemInBoots() throws Exception {
        SimulationSettings base = settings(3, 0.2, "3m");
        SimulationSettings fixed = new SimulationSettings(base.cpusPerNode(), base.maxNodes(), base.bootTimes(),
                base.evictionsPerInstanceHour(), null, base.seed(), 0, base.idleTimeout(), base.maxStartPerCycle(),
                base.maxStopPerCycle(), base.agentInterval(), base.scalerInterval(), base.agentQuickInterval(),
                base.scalerQuickInterval(), base.pintaInterval(), List.of(64), 64, base.idleTimeoutMin(),
                base.idleTimeoutMax(), 0, null, null, null, DemandModel.QUEUED);
        Simulation.Outcome outcome = Simulation.run(SwfTrace.read(LUBLIN), fixed,
                new Simulation.Selection(300, null, null));
        PolicyResult hpcscale = byName(outcome).get("hpcscale");
        assertTrue(hpcscale.evictions() > 0, "the rate must cause evictions");
        assertTrue(hpcscale.starts() > 64, "evicted instances were started again: " + hpcscale.starts());
        assertTrue(hpcscale.meanActive() > 60 && hpcscale.meanActive() <= 64, "kept near its target of 64: "
                + hpcscale.meanActive());
        assertTrue(hpcscale.violations().isEmpty());
    }

    @Test
    void theAdaptiveIdleTimeoutLearnsThatWorkComesRarelyAndStopsNodesSooner() throws Exception {
        Path trace = dir.resolve("rare.swf");
        List<String> lines = new ArrayList<>(List.of("; MaxNodes: 4"));
        for (int i = 0; i < 60; i++) {
            lines.add((i + 1) + " " + i * 7200 + " -1 600 1 -1 -1 1 600 -1 1 -1 -1 -1 0 -1 -1 -1");
        }
        Files.write(trace, lines);
        Map<String, PolicyResult> results = byName(Simulation.run(SwfTrace.read(trace), settings(1, 0, "3m"),
                Simulation.Selection.all()));
        PolicyResult fixed = results.get("hpcscale");
        PolicyResult adaptive = results.get("hpcscale-adaptive");
        assertEquals(60, adaptive.jobsCompleted());
        // Each job keeps its node the fixed 5 minutes after it; once 20 gaps of two hours are seen, 1 minute.
        assertTrue(adaptive.idleNodeHours() < fixed.idleNodeHours() - 1.5, adaptive.idleNodeHours() + " against "
                + fixed.idleNodeHours());
    }

    @Test
    void aWarmScheduleKeepsANodeUpInItsWindowOnTheMachinesOwnClock() throws Exception {
        Path trace = dir.resolve("tokyo.swf");
        // The machine's clock starts on Monday 2026-11-23 at 06:00 in Tokyo (21:00 UTC the day before): a window
        // read on another clock, UTC or the replay's default start of 2026-01-01, would miss these 12 hours.
        List<String> lines = new ArrayList<>(List.of("; MaxNodes: 4", "; UnixStartTime: 1795381200",
                "; TimeZoneString: Asia/Tokyo"));
        // A 10-minute job every two hours, from 06:00 to 16:00.
        for (int i = 0; i < 6; i++) {
            lines.add((i + 1) + " " + i * 7200 + " -1 600 1 -1 -1 1 600 -1 1 -1 -1 -1 0 -1 -1 -1");
        }
        Files.write(trace, lines);
        SimulationSettings base = settings(1, 0, "3m");
        PolicyResult plain = byName(Simulation.run(SwfTrace.read(trace), base, Simulation.Selection.all()))
                .get("hpcscale");
        SimulationSettings scheduled = onFourNodes(base, "Mon 08:00-11:00 = 1", null);
        PolicyResult warm = byName(Simulation.run(SwfTrace.read(trace), scheduled, Simulation.Selection.all()))
                .get("hpcscale");
        assertEquals(6, warm.jobsCompleted());
        // The 10:00 job finds the warm node; the others wait for a boot either way.
        assertTrue(warm.meanWaitSeconds() < plain.meanWaitSeconds() - 30, warm.meanWaitSeconds() + " against "
                + plain.meanWaitSeconds());
        // One node kept through the 3-hour window, less what the 08:00 and 10:00 jobs used of it anyway.
        double extra = warm.nodeHours() - plain.nodeHours();
        assertTrue(extra > 2.3 && extra < 3.2, "the window's node-hours: " + extra);
    }

    @Test
    void hibernationShortensEveryStartAfterTheFirstAndLeavesThePeersAsTheyWere() throws Exception {
        Path trace = dir.resolve("hourly.swf");
        List<String> lines = new ArrayList<>(List.of("; MaxNodes: 4"));
        // A 10-minute job every two hours: the pool is empty again before each.
        for (int i = 0; i < 8; i++) {
            lines.add((i + 1) + " " + i * 7200 + " -1 600 1 -1 -1 1 600 -1 1 -1 -1 -1 0 -1 -1 -1");
        }
        Files.write(trace, lines);
        SimulationSettings booting = settings(1, 0, "5m");
        SimulationSettings hibernating = onFourNodes(booting, null, BootTimes.parse("1m"));
        SimulationSettings plain = onFourNodes(booting, null, null);

        Map<String, PolicyResult> deallocated = byName(Simulation.run(SwfTrace.read(trace), plain,
                Simulation.Selection.all()));
        Map<String, PolicyResult> hibernated = byName(Simulation.run(SwfTrace.read(trace), hibernating,
                Simulation.Selection.all()));

        PolicyResult before = deallocated.get("hpcscale");
        PolicyResult after = hibernated.get("hpcscale");
        assertEquals(8, after.jobsCompleted());
        // Seven of the eight starts resume in a minute instead of booting in five.
        assertTrue(after.meanWaitSeconds() < before.meanWaitSeconds() - 180, after.meanWaitSeconds() + " against "
                + before.meanWaitSeconds());
        assertTrue(after.nodeHours() < before.nodeHours(), "a shorter start is fewer billed seconds: "
                + after.nodeHours() + " against " + before.nodeHours());
        assertEquals(deallocated.get("pintascaler").meanWaitSeconds(),
                hibernated.get("pintascaler").meanWaitSeconds(), "the peers deallocate either way");
    }

    @Test
    void aPoolThatCountsOnlyWhatBackfillingWouldStartKeepsNoNodeForAJobHeldBehindAReservation() throws Exception {
        Path trace = dir.resolve("reserved.swf");
        // Three nodes for two hours; then a job of all four, which the scheduler reserves the two hours' end for;
        // then a three-hour job of one node, which would delay that reservation, so EASY does not start it.
        Files.write(trace, List.of("; MaxNodes: 4",
                "1 0 -1 7200 3 -1 -1 3 7200 -1 1 -1 -1 -1 0 -1 -1 -1",
                "2 60 -1 3600 4 -1 -1 4 3600 -1 1 -1 -1 -1 0 -1 -1 -1",
                "3 120 -1 10800 1 -1 -1 1 10800 -1 1 -1 -1 -1 0 -1 -1 -1"));
        SimulationSettings base = settings(1, 0, "3m");
        PolicyResult queued = byName(Simulation.run(SwfTrace.read(trace), onFourNodes(base, null, null),
                Simulation.Selection.all())).get("hpcscale");
        PolicyResult backfill = byName(Simulation.run(SwfTrace.read(trace), onFourNodes(base, null, null,
                DemandModel.BACKFILL), Simulation.Selection.all())).get("hpcscale");
        assertEquals(3, backfill.jobsCompleted());
        assertTrue(backfill.violations().isEmpty(), backfill.violations().toString());
        // The queued job keeps the fourth node up, idle, for the two hours; held behind the reservation, it does not.
        assertTrue(backfill.idleNodeHours() < queued.idleNodeHours() - 1.5, backfill.idleNodeHours()
                + " against " + queued.idleNodeHours());
        assertTrue(backfill.nodeHours() < queued.nodeHours() - 1.5, backfill.nodeHours() + " against "
                + queued.nodeHours());
    }

    @Test
    void writesEveryFigureOfEveryPolicyAsJsonAndChartsAsHtml() throws Exception {
        Simulation.Outcome outcome = Simulation.run(SwfTrace.read(LUBLIN), settings(1, 0, "3m"),
                new Simulation.Selection(100, null, null));
        JsonNode json = new ObjectMapper().readTree(SimulationReport.json(outcome, null));
        assertEquals(List.of("hpcscale", "hpcscale-adaptive", "pintascaler", "slurm", "cyclecloud", "static:256",
                "static:64", "oracle"),
                iterable(json.fieldNames()));
        assertEquals(List.of("nodeHours", "idleNodeHours", "meanActiveInstances", "meanWaitSeconds", "medianWaitSeconds", "p95WaitSeconds",
                "meanBoundedSlowdown", "starts", "stops", "peakNodes", "jobsCompleted"),
                iterable(json.get("hpcscale").fieldNames()));
        String html = SimulationReport.html(outcome, null, "test", "settings");
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.contains("pintascaler") && html.endsWith("</html>\n"));
        List<SimulationReportTest.Chart> charts = SimulationReportTest.charts(html);
        long replayed = outcome.results().stream().filter(r -> !r.series().isEmpty()).count();
        assertEquals(replayed + 2, charts.size(), "cost against wait, a nodes chart per replayed policy, and the "
                + "waits");
        assertEquals(1, charts.stream().filter(SimulationReportTest.Chart::isNodes).map(c -> c.texts("y-tick"))
                .distinct().count(), "one vertical scale for every nodes chart");
        String text = SimulationReport.text(outcome, null);
        assertTrue(text.contains("hpcscale") && text.contains("oracle"), text);
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        java.util.List<String> list = new java.util.ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }
}
