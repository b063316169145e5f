package io.hpcscale.simulator.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The soak: scenario after scenario (seeds S, S+1, ...) of a simulated cluster under random faults, each checked
 * at its end (see {@link SoakScenario}). {@code -Dsoak.minutes=N} runs scenarios until N minutes are up, and
 * {@code -Dsoak.scenarios=K} at most K of them; with neither, 200 run (a few seconds), as part of every build.
 * {@code -Dsoak.seed=S} picks the first seed (1), so that a failing seed can be run again alone. The summary line
 * is printed and written to {@code target/soak-summary.txt}, where {@code scripts/soak} finds it.
 */
class SoakTest {
    private static final Path SUMMARY = Path.of("target", "soak-summary.txt");

    @Test
    void everyJobRunsAndNothingIsStoppedUnderAJobOrForgottenWhateverFails() throws Exception {
        long firstSeed = Long.getLong("soak.seed", 1);
        String minutes = System.getProperty("soak.minutes");
        long deadline = minutes == null ? Long.MAX_VALUE
                : System.nanoTime() + Duration.ofSeconds(Math.round(Double.parseDouble(minutes) * 60)).toNanos();
        int scenarioCount = Integer.getInteger("soak.scenarios", minutes == null ? 200 : Integer.MAX_VALUE);
        long began = System.nanoTime();
        FaultCounts counts = new FaultCounts();
        List<String> violations = new ArrayList<>();
        long steps = 0;
        long jobsRun = 0;
        long actionsChecked = 0;
        int twoPools = 0;
        int spot = 0;
        int twoScalers = 0;
        int checked = 0;
        long requeued = 0;
        long toldWhy = 0;
        long afterHoldWait = 0;
        int scenarios = 0;
        try (ErrorLog errors = new ErrorLog()) {
            while (scenarios < scenarioCount && System.nanoTime() < deadline) {
                long seed = firstSeed + scenarios;
                SoakScenario.Result result = new SoakScenario(seed, counts).run();
                scenarios++;
                steps += result.steps();
                jobsRun += result.jobsRun();
                actionsChecked += result.actionsChecked();
                twoPools += result.twoPools() ? 1 : 0;
                spot += result.spot() ? 1 : 0;
                twoScalers += result.twoScalers() ? 1 : 0;
                checked += result.checked() ? 1 : 0;
                requeued += result.jobsRequeued();
                toldWhy += result.jobsToldWhy();
                afterHoldWait += result.jobsAfterHoldWait();
                violations.addAll(result.violations());
                violations.addAll(errors.take().stream().map(e -> "seed " + seed + ": " + e).toList());
            }
        }
        String summary = String.format("soak: %d scenarios (seeds %d-%d; %d with two pools, %d Spot, %d with two "
                + "scalers, %d health-checked), %d steps, faults: %s; %d calls disturbed; %d jobs run; %d requeues "
                + "before an announced eviction; %d jobs told why they waited; %d jobs on a node whose check failed, "
                + "started after its hold wait ran out unheld (documented); %d starts and stops checked; "
                + "%d violations; %ds", scenarios, firstSeed, firstSeed + scenarios - 1, twoPools, spot, twoScalers,
                checked, steps, counts.summary(), counts.disturbedCalls(), jobsRun, requeued, toldWhy, afterHoldWait,
                actionsChecked, violations.size(),
                Duration.ofNanos(System.nanoTime() - began).toSeconds());
        System.out.println(summary);
        violations.forEach(v -> System.out.println("violation: " + v));
        write(summary, violations);
        assertTrue(scenarios > 0, "no scenario ran");
        // One seed run again alone may well miss a kind; twenty scenarios inject each kind dozens of times.
        for (Fault fault : scenarios >= 20 ? Fault.values() : new Fault[0]) {
            assertTrue(counts.of(fault) > 0, "the soak must inject every kind of fault: " + counts.summary());
        }
        assertEquals(List.of(), violations.subList(0, Math.min(10, violations.size())), summary);
    }

    private static void write(String summary, List<String> violations) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(summary);
        violations.forEach(v -> lines.add("violation: " + v));
        Files.createDirectories(SUMMARY.getParent());
        Files.write(SUMMARY, lines);
    }
}
