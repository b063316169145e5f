package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobTimes;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.plan.EventKind;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The classes of trouble a real OpenPBS showed (../shared/notes/pbs-as-it-really-behaves.md), looked for in a real
 * Slurm 22.05: a suspended job's node, which sinfo shows {@code idle} with no CPU allocated; an administrator's drain
 * and {@code scontrol reboot ASAP}; a slurmctld restart, which keeps every reason and shows nodes {@code unknown}
 * until their slurmd registers again.
 */
class SlurmAsItReallyAnswersTest {
    @TempDir
    Path dir;

    @BeforeEach
    void needsRoot() throws IOException {
        RealSlurm.assumeAvailable("real-Slurm test", dir);
    }

    private Path config(RealSlurm slurm) throws IOException {
        Path file = dir.resolve("hpcscale.properties");
        Files.write(file, List.of(
                "store.sqlite.path = " + dir.resolve("clusterload.db"),
                "agent.host = head",
                "agent.commandTimeout = 20s",
                "agent.slurm.slurmConf = " + slurm.slurmConf(),
                "scaler.staleAfter = 1m",
                "pool.batch.provider = command",
                "pool.batch.cpus = 4",
                "pool.batch.memoryMb = 8000",
                "pool.batch.max = 3",
                "pool.batch.idleTimeout = 0s",
                "pool.batch.command.list = " + slurm.nodeCommand("list"),
                "pool.batch.command.start = " + slurm.nodeCommand("start"),
                "pool.batch.command.stop = " + slurm.nodeCommand("stop")));
        return file;
    }

    private static VmDocument vm(SlurmServices services, String node) {
        return new DocumentStore(services.store).read(new DocumentKey("batch", node), VmDocument.class).orElseThrow()
                .document();
    }

    private static JobDocument jobDocument(SlurmServices services, String job) {
        return new DocumentStore(services.store).read(new DocumentKey("batch", job), JobDocument.class).orElseThrow()
                .document();
    }

    private static String state(RealSlurm slurm, String node) throws IOException, InterruptedException {
        var json = slurm.node(node);
        return json.path("state").asText() + " " + json.path("state_flags") + " " + json.path("reason").asText();
    }

    @Test
    void aNodeWhoseJobIsSuspendedLooksIdleToSinfoButIsNeitherDrainedNorStopped() throws Exception {
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "2");
                SlurmServices services = new SlurmServices(dir, config(slurm))) {
            String job = slurm.sbatch("-N", "1", "-c", "4", "-t", "10", "--wrap", "sleep 600");
            services.until(slurm, Duration.ofMinutes(2), "the job runs",
                    () -> slurm.jobs().get(job).path("job_state").asText().equals("RUNNING"));
            String node = slurm.jobs().get(job).path("nodes").asText();
            slurm.scontrol("suspend", job);
            String seen = state(slurm, node);
            assertTrue(seen.startsWith("idle"), "Slurm shows the node of a suspended job idle: " + seen);
            for (int i = 0; i < 5; i++) {
                services.cycle(slurm);
            }
            assertEquals(List.of(job), vm(services, node).jobIds(), "the suspended job holds " + node);
            assertTrue(slurm.runningNodes().contains(node), "the node of a suspended job was stopped");
            assertEquals(0, services.count(EventKind.DRAIN), "the node of a suspended job was drained");
            assertEquals(List.of(), slurm.violations());
            System.out.printf("real Slurm: a node whose job is suspended: %s; hpcscale kept it%n", seen);
            assertEquals(null, jobDocument(services, job).times().expectedEnd(),
                    "a suspended job's limit does not run: no end is foreseen");

            slurm.scontrol("resume", job);
            services.cycle(slurm);
            JobTimes resumed = jobDocument(services, job).times();
            Instant slurmEnd = Instant.ofEpochSecond(slurm.jobs().get(job).path("end_time").asLong());
            assertEquals(slurmEnd, resumed.expectedEnd(), "the resumed job ends when Slurm says");
            assertTrue(resumed.expectedEnd().isAfter(resumed.startedAt().plus(Duration.ofMinutes(10))),
                    "later than its start plus its limit, by the time it was suspended: " + resumed);

            slurm.scancel(List.of(job));
            services.until(slurm, Duration.ofMinutes(2), "the node is stopped once its job is gone",
                    () -> slurm.runningNodes().isEmpty());
            assertEquals(List.of(), slurm.violations());
        }
    }

    @Test
    void checkAsksSlurmctldWhetherTheAgentMayDrainAndSaysWhatToGrant() throws Exception {
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "1")) {
            Path config = config(slurm);
            StringWriter allowed = new StringWriter();
            CommandLine root = SlurmAgentMain.commandLine();
            root.setOut(new PrintWriter(allowed));
            assertEquals(0, root.execute("check", "--config", config.toString()), allowed.toString());
            assertTrue(allowed.toString().contains("ok      drain right: scontrol update state=drain is allowed"),
                    allowed.toString());

            // The same commands as a user slurmctld does not let update nodes.
            Path asNobody = dir.resolve("scontrol-as-nobody");
            Files.writeString(asNobody, "#!/bin/sh\nexec runuser -u nobody -- scontrol \"$@\"\n");
            Files.setPosixFilePermissions(asNobody, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.writeString(config, Files.readString(config) + "agent.slurm.scontrol = " + asNobody + "\n");
            StringWriter refused = new StringWriter();
            CommandLine nobody = SlurmAgentMain.commandLine();
            nobody.setOut(new PrintWriter(refused));
            assertEquals(1, nobody.execute("check", "--config", config.toString()), refused.toString());
            assertTrue(refused.toString().contains("problem drain right: slurmctld refuses scontrol update")
                    && refused.toString().contains("Invalid user id")
                    && refused.toString().contains("adminlevel=Administrator"), refused.toString());
        }
    }

    @Test
    void drainReasonsSurviveASlurmctldRestartAndAnAdministratorsDrainOrRebootIsNeverTouched() throws Exception {
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "3");
                SlurmServices services = new SlurmServices(dir, config(slurm))) {
            for (String node : List.of("node1", "node2", "node3")) {
                slurm.nodeStart(node);
            }
            slurm.scontrol("update", "nodename=node2", "state=drain", "reason=maintenance: bad DIMM");
            slurm.scontrol("reboot", "ASAP", "reason=kernel update", "node3");
            services.until(slurm, Duration.ofMinutes(1), "node1's drain", () -> {
                services.agent.runOnce(Instant.now());
                services.scaler.runOnce(Instant.now());
                return services.count(EventKind.DRAIN) > 0;
            });
            services.agent.runOnce(Instant.now());
            assertTrue(state(slurm, "node1").contains("hpcscale:"), state(slurm, "node1"));

            slurm.restartController();
            String afterRestart = state(slurm, "node1");
            services.agent.runOnce(Instant.now());
            assertTrue(afterRestart.contains("hpcscale:"), "slurmctld keeps the reason: " + afterRestart);
            assertTrue(vm(services, "node1").offlineByHpcscale());

            services.until(slurm, Duration.ofMinutes(2), "node1 stopped", () -> !slurm.runningNodes()
                    .contains("node1"));
            for (int i = 0; i < 3; i++) {
                services.cycle(slurm);
            }
            assertTrue(slurm.runningNodes().containsAll(List.of("node2", "node3")), "an administrator's node was "
                    + "stopped: " + slurm.runningNodes());
            assertTrue(vm(services, "node2").heldByAdministrator());
            assertTrue(vm(services, "node3").heldByAdministrator(), state(slurm, "node3"));
            assertTrue(state(slurm, "node2").contains("maintenance: bad DIMM"));
            assertFalse(state(slurm, "node3").contains("hpcscale"));
            System.out.printf("real Slurm: node1 after a slurmctld restart: %s; an administrator's reboot: %s%n",
                    afterRestart, state(slurm, "node3"));
        }
    }
}
