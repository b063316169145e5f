package io.hpcscale.simulator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
}
