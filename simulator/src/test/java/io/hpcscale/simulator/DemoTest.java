package io.hpcscale.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's first command, run in CI: the demo scales up, runs every job and scales back down to min. */
class DemoTest {
    @TempDir
    Path dir;

    @Test
    void scalesUpRunsEveryJobAndScalesBackToMin() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Demo.Result result = new Demo(new Demo.Options(7, 20, 0, dir), new PrintStream(printed, true,
                StandardCharsets.UTF_8)).run();
        String output = printed.toString(StandardCharsets.UTF_8);
        assertTrue(result.completed(), output);
        assertTrue(result.starts() >= 2 && result.peakActive() >= 2, "it scaled up: " + result);
        assertEquals(result.submitted(), result.finished(), "every job ran");
        assertEquals(result.min(), result.activeAtEnd(), "back to min");
        assertTrue(result.violations().isEmpty(), result.violations().toString());
        assertTrue(result.instanceHours() >= result.jobNodeHours(), "accounting: instances run at least the jobs");
        assertTrue(output.contains("scaler      start demo_1,") && output.contains("agent       took ")
                && output.contains("scaler      stop ") && output.contains("Summary after"), output);
        assertTrue(Files.exists(dir.resolve("clusterload.db")) && Files.exists(dir.resolve("demo.properties")));
    }

    @Test
    void isTheSameForTheSameSeed() throws Exception {
        Demo.Result first = new Demo(new Demo.Options(3, 12, 0, dir.resolve("a")),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
        Demo.Result second = new Demo(new Demo.Options(3, 12, 0, dir.resolve("b")),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
        assertEquals(first.starts(), second.starts());
        assertEquals(first.meanWait(), second.meanWait());
        assertEquals(first.simulated(), second.simulated());
    }
}
