package io.hpcscale.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** hpcscale-scaler as installed: the production commands and the simulator's. */
class ScalerProgramTest {
    @TempDir
    Path dir;

    private record Run(int exitCode, String out, String err) {
    }

    private Run run(String... args) {
        CommandLine commandLine = ScalerProgram.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void offersTheScalersCommandsAndTheSimulators() {
        Run help = run("--help");
        for (String command : List.of("run", "once", "plan", "documents", "demo", "simulate")) {
            assertTrue(help.out().contains(command), help.out());
        }
    }

    @Test
    void simulateNamesTheBadLineOfATraceOrTheUnwritableOutputBeforeReplaying() throws IOException {
        Path trace = dir.resolve("bad.swf");
        Files.write(trace, List.of("; MaxNodes: 4", "1 0 0 10 2 -1 -1 2 20", "2 5 x 10"));
        Run malformed = run("simulate", "--trace", trace.toString());
        assertEquals(2, malformed.exitCode(), malformed.err());
        assertTrue(malformed.err().contains("bad.swf line 3: expected at least 9 fields"), malformed.err());
        assertFalse(malformed.err().contains("Exception"), malformed.err());

        Files.write(trace, List.of("; MaxNodes: 4", "1 0 0 10 2 -1 -1 2 20", "2 5 0 1O 2 -1 -1 2 20"));
        Run notANumber = run("simulate", "--trace", trace.toString());
        assertEquals(2, notANumber.exitCode(), notANumber.err());
        assertTrue(notANumber.err().contains("line 3: a field is not a whole number"), notANumber.err());

        Files.write(trace, List.of("; MaxNodes: 4", "1 0 0 -1 2 -1 -1 2 20"));
        Run nothingLeft = run("simulate", "--trace", trace.toString());
        assertEquals(2, nothingLeft.exitCode(), nothingLeft.err());
        assertTrue(nothingLeft.err().contains("no job of the trace is left to replay"), nothingLeft.err());

        Files.write(trace, List.of("; MaxNodes: 4", "1 0 0 10 2 -1 -1 2 20"));
        Run noDirectory = run("simulate", "--trace", trace.toString(), "--json",
                dir.resolve("missing/result.json").toString());
        assertEquals(2, noDirectory.exitCode(), noDirectory.err());
        assertTrue(noDirectory.err().contains("--json") && noDirectory.err().contains("does not exist"),
                noDirectory.err());
        assertFalse(noDirectory.out().contains("node-hours"), "refused before replaying: " + noDirectory.out());
    }

    @Test
    void simulateAddsACostPerPolicyOnlyWithAPricePerHour() throws IOException {
        Path trace = dir.resolve("small.swf");
        Files.write(trace, List.of("; MaxNodes: 4", "1 0 0 3600 2 -1 -1 2 3600", "2 60 0 1800 4 -1 -1 4 3600"));
        Path json = dir.resolve("result.json");
        Run priced = run("simulate", "--trace", trace.toString(), "--price-per-hour", "0.25", "--json",
                json.toString());
        assertEquals(0, priced.exitCode(), priced.err());
        JsonNode figures = new ObjectMapper().readTree(json.toFile());
        List<String> policies = new ArrayList<>();
        figures.fieldNames().forEachRemaining(policies::add);
        assertTrue(policies.size() >= 4, policies.toString());
        for (String policy : policies) {
            double cost = figures.get(policy).get("nodeHours").asDouble() * 0.25;
            assertEquals(cost, figures.get(policy).get("cost").asDouble(), 0.01, policy);
            Matcher line = Pattern.compile("(?m)^" + Pattern.quote(policy) + ": cost (\\d+\\.\\d\\d) ")
                    .matcher(priced.out());
            assertTrue(line.find(), policy + " has a cost line: " + priced.out());
            assertEquals(cost, Double.parseDouble(line.group(1)), 0.01, policy);
        }

        Run unpriced = run("simulate", "--trace", trace.toString());
        assertEquals(0, unpriced.exitCode(), unpriced.err());
        assertFalse(unpriced.out().contains("cost"), unpriced.out());

        Run negative = run("simulate", "--trace", trace.toString(), "--price-per-hour", "-1");
        assertEquals(2, negative.exitCode(), negative.err());
        assertTrue(negative.err().contains("--price-per-hour"), negative.err());
        assertTrue(run("simulate", "--help").out().contains("--price-per-hour"));
    }
}
