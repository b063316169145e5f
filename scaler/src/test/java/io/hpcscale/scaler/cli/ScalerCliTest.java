package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.scaler.documents.LeaseDocument;
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
                && missing.err().contains("pool.gpu.max is required"), missing.err());

        file = config("store.sqlite.path = " + dir.resolve("db"), "pool.gpu.provider = simulated", "pool.gpu.max = 2");
        Run shapeless = run("once", "--config", file.toString());
        assertEquals(2, shapeless.exitCode());
        assertTrue(shapeless.err().contains("pool.gpu.cpus and pool.gpu.memoryMb are required for pool.gpu.provider"
                + " = simulated"), shapeless.err());

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
    void explainsPerPoolWhyAJobMatchesOrNot() throws IOException {
        Path db = dir.resolve("clusterload.db");
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(db, Duration.ofSeconds(5), Clock.systemUTC())) {
            Instant now = Instant.now();
            new DocumentStore(store).upsert(List.of(new JobDocument("42.s", "cpu", "42.s", "workq", JobState.Queued,
                    2, List.of(new Chunk(2, 8, 0, 0)), Placement.scatter, false, now, "agent-h-pbs", null,
                    "[{\"infiniband\":true}]")));
        }
        Path file = config("store.sqlite.path = " + db,
                "pool.cpu.provider = simulated", "pool.cpu.max = 4", "pool.cpu.cpus = 16", "pool.cpu.memoryMb = 65536",
                "pool.cpu.pricePerHour = 0.8", "pool.cpu.vmSize = Standard_D16s_v5", "pool.cpu.fallbacks = hb, big",
                "pool.hb.provider = simulated", "pool.hb.max = 4", "pool.hb.cpus = 120", "pool.hb.memoryMb = 450000",
                "pool.hb.pricePerHour = 3.6", "pool.hb.resource.infiniband = true",
                "pool.big.provider = simulated", "pool.big.max = 1", "pool.big.cpus = 4", "pool.big.memoryMb = 1000",
                "pool.big.pricePerHour = 0.2", "pool.big.resource.infiniband = true",
                "pool.cpu.constraint = {\"ncpus\": 8}");
        Run explained = run("plan", "--config", file.toString(), "--explain", "42.s");
        assertEquals(0, explained.exitCode(), explained.err());
        String out = explained.out();
        assertTrue(out.contains("job 42.s in queue workq (pool cpu), Queued: 2 x (8 CPUs, 0 MiB, 0 GPUs); scatter"),
                out);
        assertTrue(out.contains("constraints: ((Node.ncpus >= 8) and (Node.infiniband == True))"), out);
        assertTrue(out.matches("(?s).*big +0\\.20/h +no: its constraints are not met: Resource\\[name=ncpus "
                + "value=8\\] > Pool\\[name=big value=4\\].*"), out);
        assertTrue(out.matches("(?s).*cpu +Standard_D16s_v5 +0\\.80/h +no: its constraints are not met: "
                + "Resource\\[name=infiniband\\] not defined for Pool\\[name=cpu vm_size=Standard_D16s_v5\\].*"), out);
        assertTrue(out.matches("(?s).*hb +3\\.60/h +matches and fits: the job's nodes start here.*"), out);
        assertTrue(out.indexOf("  big") < out.indexOf("  cpu") && out.indexOf("  cpu") < out.indexOf("  hb"),
                "in the order the job tries them, cheapest first: " + out);

        Run unknown = run("plan", "--config", file.toString(), "--explain", "43.s");
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.out().startsWith("no job 43.s in the store"), unknown.out());
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
                && plan.out().matches("(?s).*start +sim_1 .*") && plan.out().contains("1 queued job needs 1 more node"),
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
        for (String command : List.of("run", "once", "plan", "check", "documents")) {
            assertTrue(help.out().contains(command), help.out());
        }
        assertTrue(run("--version").out().startsWith("hpcscale-scaler 0."));
    }

    @Test
    void onceRefusesToActWhileAnotherScalerHoldsALiveLeaseAndSaysWho() throws IOException {
        Path db = dir.resolve("clusterload.db");
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(db, Duration.ofSeconds(5), Clock.systemUTC())) {
            DocumentStore documents = new DocumentStore(store);
            Instant now = Instant.now();
            documents.upsert(List.of(new LeaseDocument("manager2:4242", "manager2", 4242, "boot", now,
                    now.plusSeconds(600)), new AgentDocument("agent-h-pbs", "pbs", "h", "t", now, 1, List.of("sim"),
                    null, now), new JobDocument("7.s", "sim", "7.s", "sim", JobState.Queued, 1,
                    List.of(new Chunk(1, 8, 0, 0)), Placement.free, false, now, "agent-h-pbs")));
        }
        Path file = config("store.sqlite.path = " + db, "pool.sim.provider = simulated", "pool.sim.max = 2",
                "pool.sim.cpus = 16", "pool.sim.memoryMb = 65536");
        Run once = run("once", "--config", file.toString());
        assertEquals(1, once.exitCode(), once.out() + once.err());
        assertTrue(once.out().contains("scaler manager2:4242 holds the lease until"), once.out());
        Run plan = run("plan", "--config", file.toString());
        assertEquals(0, plan.exitCode(), "plan reads only and needs no lease: " + plan.err());
        assertTrue(plan.out().contains("1 queued job considered, 1 more node needed"), plan.out());
    }

    @Test
    void onceAndPlanSayWhyAPoolsInstancesAreUnknownAndExitNonZero() throws IOException {
        Path db = dir.resolve("clusterload.db");
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(db, Duration.ofSeconds(5), Clock.systemUTC())) {
            Instant now = Instant.now();
            DocumentStore documents = new DocumentStore(store);
            for (int i = 1; i <= 6; i++) {
                documents.upsert(List.of(new JobDocument("j" + i, "rack", "j" + i, "rack", JobState.Queued, 1,
                        List.of(new Chunk(1, 8, 0, 0)), Placement.free, false, now, "agent-h-pbs")));
            }
            documents.upsert(List.of(new AgentDocument("agent-h-pbs", "pbs", "h", "t", now, 1, List.of("rack"), null,
                    now)));
        }
        Path file = config("store.sqlite.path = " + db, "pool.rack.provider = command", "pool.rack.max = 8",
                "pool.rack.cpus = 16", "pool.rack.memoryMb = 65536",
                "pool.rack.command.list = " + dir.resolve("no-such-power-list"),
                "pool.rack.command.start = /bin/true {instance}", "pool.rack.command.stop = /bin/true {instance}");
        Run plan = run("plan", "--config", file.toString());
        assertEquals(1, plan.exitCode(), plan.out());
        assertTrue(plan.out().contains("pool rack: 6 queued jobs; its instances are unknown (")
                && plan.out().contains("no-such-power-list") && !plan.out().contains("0 queued jobs"), plan.out());
        Run once = run("once", "--config", file.toString());
        assertEquals(1, once.exitCode(), once.out());
        assertTrue(once.out().contains("its instances are unknown"), once.out());
    }
}
