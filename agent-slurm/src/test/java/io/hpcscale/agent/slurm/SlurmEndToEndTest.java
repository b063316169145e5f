package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.plan.EventKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * hpcscale end to end against a real Slurm 22.05 on this machine: the real agent reads squeue and sinfo and drains
 * with scontrol; the real scaler starts and stops nodes through the command provider, where a node's "VM" is its
 * slurmd. Both share a SQLite file, as on a single-host installation. Jobs are submitted with sbatch.
 */
class SlurmEndToEndTest {

    @TempDir
    Path dir;

    @BeforeEach
    void needsRoot() throws IOException {
        RealSlurm.assumeAvailable("real-Slurm end-to-end test", dir);
    }

    private Path config(RealSlurm slurm, String pool, String... extra) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "store.sqlite.path = " + dir.resolve("clusterload.db"),
                "agent.host = head",
                "agent.commandTimeout = 20s",
                "agent.slurm.slurmConf = " + slurm.slurmConf(),
                "scaler.staleAfter = 1m",
                "pool." + pool + ".provider = command",
                "pool." + pool + ".cpus = 4",
                "pool." + pool + ".memoryMb = 8000",
                "pool." + pool + ".bootTimeout = 2m",
                "pool." + pool + ".command.list = " + slurm.nodeCommand("list"),
                "pool." + pool + ".command.start = " + slurm.nodeCommand("start"),
                "pool." + pool + ".command.stop = " + slurm.nodeCommand("stop")));
        lines.addAll(List.of(extra));
        Path file = dir.resolve("hpcscale.properties");
        Files.write(file, lines);
        return file;
    }

    private static boolean completed(JsonNode job) {
        return job.path("job_state").asText().equals("COMPLETED");
    }

    @Test
    void startsJustEnoughNodesForTheJobsThenDrainsAndStopsThem() throws Exception {
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "4");
                SlurmServices services = new SlurmServices(dir, config(slurm, "batch", "pool.batch.max = 4",
                        "pool.batch.idleTimeout = 20s"))) {
            String quiet = services.adapter.quickSignature().orElseThrow();
            String held = slurm.sbatch("-H", "-N", "1", "--wrap", "sleep 1");
            assertNotEquals(quiet, services.adapter.quickSignature().orElseThrow(), "sdiag counts the submitted job");
            for (int i = 0; i < 4; i++) {
                services.cycle(slurm);
            }
            assertEquals(List.of(), slurm.runningNodes(), "a held job starts nothing");
            assertEquals(0, services.count(EventKind.START));

            Instant submitted = Instant.now();
            List<String> jobs = new ArrayList<>();
            jobs.add(slurm.sbatch("-N", "2", "--exclusive", "--wrap", "sleep 15"));
            jobs.add(slurm.sbatch("-N", "1", "-c", "4", "--wrap", "sleep 10"));
            String array = slurm.sbatch("--array=1-2", "-c", "2", "--wrap", "sleep 10");
            jobs.add(array + "_1");
            jobs.add(array + "_2");

            services.until(slurm, Duration.ofMinutes(4), "every job completed", () -> {
                Map<String, JsonNode> known = slurm.jobs();
                return jobs.stream().allMatch(id -> known.containsKey(id) && completed(known.get(id)));
            });
            Instant lastEnd = Instant.EPOCH;
            Map<String, JsonNode> known = slurm.jobs();
            for (String id : jobs) {
                JsonNode job = known.get(id);
                assertEquals(0, job.path("restart_cnt").asInt(), "job " + id + " was requeued");
                assertEquals(0, job.path("exit_code").asInt(), "job " + id + " failed");
                Instant end = Instant.ofEpochSecond(job.path("end_time").asLong());
                lastEnd = end.isAfter(lastEnd) ? end : lastEnd;
            }
            assertEquals("PENDING", known.get(held).path("job_state").asText());

            services.until(slurm, Duration.ofMinutes(3), "back to min (0 nodes)", () -> slurm.runningNodes().isEmpty());

            assertEquals(4, services.peakRunning, "four nodes were needed at once, and no more were started");
            assertEquals(4, services.count(EventKind.START));
            assertEquals(4, services.count(EventKind.STOP));
            assertEquals(4, services.count(EventKind.DRAIN));
            assertEquals(List.of(), slurm.violations(), "a node was stopped while Slurm had a job on it");

            List<String[]> power = slurm.powerLog();
            Instant firstStart = power.stream().filter(e -> e[1].equals("start")).map(e -> RealSlurm.epoch(e[0]))
                    .min(Instant::compareTo).orElseThrow();
            Instant lastStop = power.stream().filter(e -> e[1].equals("stop")).map(e -> RealSlurm.epoch(e[0]))
                    .max(Instant::compareTo).orElseThrow();
            System.out.printf("real Slurm, static nodes: sbatch -> first start call %.1f s; last job end -> last "
                    + "instance stop %.1f s (idle timeout 20 s, cycles every %d s); %d starts, %d drains, %d stops, "
                    + "0 violations%n", Duration.between(submitted, firstStart).toMillis() / 1000.0,
                    Duration.between(lastEnd, lastStop).toMillis() / 1000.0, SlurmServices.CYCLE.toSeconds(),
                    services.count(EventKind.START), services.count(EventKind.DRAIN), services.count(EventKind.STOP));

            // A drained node whose VM starts again: once its slurmd registers, the agent resumes it, and it runs work.
            String again = slurm.sbatch("-N", "1", "-c", "4", "--wrap", "sleep 3");
            services.until(slurm, Duration.ofMinutes(3), "a restarted, drained node ran a new job",
                    () -> completed(slurm.jobs().get(again)));
            assertEquals(0, slurm.jobs().get(again).path("restart_cnt").asInt());
            assertEquals(5, services.count(EventKind.START));
            services.until(slurm, Duration.ofMinutes(3), "back to min again", () -> slurm.runningNodes().isEmpty());
            assertEquals(List.of(), slurm.violations());
        }
    }

    @Test
    void aJobWaitingForALicenceStartsNoNodeAndItsFeatureChoosesThePool() throws Exception {
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "2");
                SlurmServices services = new SlurmServices(dir, config(slurm, "batch", "pool.batch.max = 2",
                        "pool.batch.idleTimeout = 10s", "pool.batch.resource.ib = true",
                        "shared.matlab.total = 1"))) {
            String first = slurm.sbatch("-N", "1", "-c", "4", "--licenses=matlab:1", "--constraint=ib",
                    "--wrap", "sleep 15");
            String second = slurm.sbatch("-N", "1", "-c", "4", "--licenses=matlab:1", "--constraint=ib",
                    "--wrap", "sleep 5");
            services.cycle(slurm);
            DocumentStore documents = new DocumentStore(services.store);
            JobDocument waiting = documents.read(new DocumentKey("batch", second), JobDocument.class).orElseThrow()
                    .document();
            assertEquals(JobState.Waiting, waiting.status());
            assertEquals("shared resource matlab: it asks for 1 and 0 of the 1 free now are left for it",
                    waiting.waitingFor());
            assertEquals("[{\"ib\":true}]", waiting.constraints());

            services.until(slurm, Duration.ofMinutes(3), "both jobs completed", () -> {
                Map<String, JsonNode> known = slurm.jobs();
                return Stream.of(first, second).allMatch(id -> known.containsKey(id) && completed(known.get(id)));
            });
            assertEquals(1, services.peakRunning, "the job waiting for the licence never had a node started for it");
            assertEquals(List.of(), slurm.violations());
        }
    }

    @Test
    void carriesOutSlurmsPowerSavingThroughTheScaler() throws Exception {
        Path resume = program("resume");
        Path suspend = program("suspend");
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "0", "--cloud", "3",
                "--resume-program", resume.toString(), "--suspend-program", suspend.toString(), "--suspend-time",
                "15");
                SlurmServices services = new SlurmServices(dir, config(slurm, "cloud", "pool.cloud.max = 3",
                        "pool.cloud.followPowerRequests = true"))) {
            services.cycle(slurm);
            Instant submitted = Instant.now();
            String job = slurm.sbatch("-p", "cloud", "-N", "2", "--wrap", "sleep 10");

            services.until(slurm, Duration.ofMinutes(4), "the cloud job completed",
                    () -> completed(slurm.jobs().getOrDefault(job, com.fasterxml.jackson.databind.node.NullNode
                            .getInstance())));
            JsonNode done = slurm.jobs().get(job);
            assertEquals(0, done.path("restart_cnt").asInt(), "the job was requeued (a resume timed out?)");
            Instant end = Instant.ofEpochSecond(done.path("end_time").asLong());

            services.until(slurm, Duration.ofMinutes(3), "Slurm suspended the nodes and the scaler stopped them",
                    () -> slurm.runningNodes().isEmpty());
            services.cycle(slurm);
            assertEquals(2, services.count(EventKind.START), "exactly the two nodes Slurm resumed");
            assertEquals(2, services.count(EventKind.STOP));
            assertEquals(0, services.count(EventKind.DRAIN), "power saving needs no drain");
            assertEquals(List.of(), slurm.violations());
            assertTrue(services.store.queryByType(DocumentType.POWER).isEmpty(), "every power request was done");
            assertTrue(Files.readString(dir.resolve("resume.log")).contains("resume requested for cnode1 in pool "
                    + "cloud"));

            List<String[]> power = slurm.powerLog();
            Instant firstStart = power.stream().filter(e -> e[1].equals("start")).map(e -> RealSlurm.epoch(e[0]))
                    .min(Instant::compareTo).orElseThrow();
            Instant lastStop = power.stream().filter(e -> e[1].equals("stop")).map(e -> RealSlurm.epoch(e[0]))
                    .max(Instant::compareTo).orElseThrow();
            System.out.printf("real Slurm, power saving: sbatch -> first start call %.1f s (through ResumeProgram); "
                    + "job end -> last instance stop %.1f s (SuspendTime 15 s)%n",
                    Duration.between(submitted, firstStart).toMillis() / 1000.0,
                    Duration.between(end, lastStop).toMillis() / 1000.0);
        }
    }

    /** Slurm's ResumeProgram or SuspendProgram: the agent's command, with an absolute java (Slurm's PATH is bare). */
    private Path program(String action) throws IOException {
        Path script = dir.resolve(action + ".sh");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(script, "#!/bin/sh\nexec " + java + " -cp '" + System.getProperty("java.class.path") + "' "
                + SlurmAgentMain.class.getName() + " " + action + " --config " + dir.resolve("hpcscale.properties")
                + " \"$@\" >> " + dir.resolve(action + ".log") + " 2>&1\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }
}
