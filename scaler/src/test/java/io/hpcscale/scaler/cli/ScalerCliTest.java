package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ScalerCliTest {
    @TempDir
    Path dir;

    private record Run(int exitCode, String out, String err) {
    }

    private Run run(String... args) {
        CommandLine commandLine = ScalerMain.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private Path config(String... lines) throws IOException {
        Path file = dir.resolve("hpcscale.properties");
        Files.write(file, List.of(lines));
        return file;
    }

    @Test
    void namesEveryMissingOrContradictorySetting() throws IOException {
        Path file = config("store.sqlite.path = " + dir.resolve("db"), "pool.rack.max = 4",
                "pool.rack.cpus = 16", "pool.rack.memoryMb = 65536", "pool.gpu.provider = simulated");
        Run missing = run("once", "--config", file.toString());
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("pool.rack.provider is required by hpcscale-scaler")
                && missing.err().contains("pool.gpu.max is required") && missing.err().contains("pool.gpu.cpus"),
                missing.err());

        file = config("store.sqlite.path = " + dir.resolve("db"), "pool.rack.provider = command", "pool.rack.max = 4",
                "pool.rack.min = 5", "pool.rack.cpus = 16", "pool.rack.memoryMb = 65536");
        Run contradictory = run("once", "--config", file.toString());
        assertEquals(2, contradictory.exitCode());
        assertTrue(contradictory.err().contains("pool.rack.min=5 is more than pool.rack.max=4"), contradictory.err());

        file = config("store.sqlite.path = " + dir.resolve("db"), "pool.rack.provider = command", "pool.rack.max = 4",
                "pool.rack.cpus = 16", "pool.rack.memoryMb = 65536", "pool.rack.stopAction = delete",
                "pool.rack.command.start = power-on {bmc}");
        Run command = run("once", "--config", file.toString());
        assertEquals(2, command.exitCode());
        assertTrue(command.err().contains("pool.rack.command.list is required when pool.rack.provider = command")
                && command.err().contains("pool.rack.command.stop is required")
                && command.err().contains("pool.rack.stopAction = delete cannot be done"), command.err());
    }

    @Test
    void plansAndDryRunsWithoutTouchingAnything() throws IOException {
        Path db = dir.resolve("clusterload.db");
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(db, Duration.ofSeconds(5), Clock.systemUTC())) {
            DocumentStore documents = new DocumentStore(store);
            Instant now = Instant.now();
            documents.upsert(List.of(new AgentDocument("agent-h-pbs", "pbs", "h", "t", now, 1, List.of("sim"), null,
                    now), new JobDocument("7.s", "sim", "7.s", "sim", JobState.Queued, 1, List.of(new Chunk(1, 8, 0, 0)),
                    Placement.free, false, now, "agent-h-pbs")));
        }
        Path file = config("store.sqlite.path = " + db, "pool.sim.provider = simulated", "pool.sim.max = 2",
                "pool.sim.cpus = 16", "pool.sim.memoryMb = 65536", "scaler.dryRun = true");
        Run plan = run("plan", "--config", file.toString());
        assertEquals(0, plan.exitCode(), plan.err());
        assertTrue(plan.out().contains("pool sim: 1 queued job considered, 1 more node needed")
                && plan.out().contains("start        sim_1") && plan.out().contains("1 queued job needs 1 more node"),
                plan.out());
        Run once = run("--config", file.toString(), "once");
        assertEquals(0, once.exitCode(), once.err());
        assertTrue(once.out().contains("start") && once.out().contains("[dry-run]"), once.out());
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(db, Duration.ofSeconds(5), Clock.systemUTC())) {
            assertTrue(store.queryByType(DocumentType.EVENTS).isEmpty(), "a dry run writes no event");
        }
    }

    @Test
    void answersVersionAndHelp() {
        Run help = run("--help");
        for (String command : List.of("run", "once", "plan", "demo", "documents")) {
            assertTrue(help.out().contains(command), help.out());
        }
        assertTrue(run("--version").out().startsWith("hpcscale-scaler 0."));
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
