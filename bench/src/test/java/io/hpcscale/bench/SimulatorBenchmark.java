package io.hpcscale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.simulator.replay.PolicyResult;
import io.hpcscale.simulator.replay.Simulation;
import io.hpcscale.simulator.replay.SimulationSettings;
import io.hpcscale.simulator.replay.SwfTrace;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The simulator over the whole Lublin trace with the simulate command's defaults: how long it takes and how much heap
 * it needs, against its goal of under a minute and well under the 512 MB heap the benchmarks run in.
 */
class SimulatorBenchmark {
    private static final Path LUBLIN = Path.of("..", "traces", "lublin_256.swf");

    @Test
    void jobsSimulatedPerSecondOnTheLublinTrace() throws Exception {
        SwfTrace trace = SwfTrace.read(LUBLIN);
        SimulationSettings settings = SimulationSettings.defaults(trace.maxNodes());
        long begin = System.nanoTime();
        Simulation.Outcome outcome;
        double peakMb;
        double liveMb;
        try (Measure.HeapWatch heap = Measure.watchHeap()) {
            outcome = Simulation.run(trace, settings, Simulation.Selection.all());
            peakMb = heap.peakMb();
            liveMb = heap.liveMb();
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        int policies = 0;
        for (PolicyResult result : outcome.results()) {
            assertEquals(outcome.jobs(), result.jobsCompleted(), result.name());
            policies += result.name().equals("oracle") ? 0 : 1;
        }
        long simulated = (long) policies * outcome.jobs();
        Measure.report("machine: " + Measure.machine());
        Measure.report(String.format(Locale.ROOT, "simulator: %d jobs x %d policies in %.1f s: %.0f jobs simulated "
                + "per second; heap at most %.0f MB, %.0f MB live after the replay", outcome.jobs(), policies,
                seconds, simulated / seconds, peakMb, liveMb));
        for (PolicyResult result : outcome.results()) {
            Measure.report(String.format(Locale.ROOT, "simulator: %-17s %.1f node-hours, %.1f idle", result.name(),
                    result.nodeHours(), result.idleNodeHours()));
        }
    }
}
