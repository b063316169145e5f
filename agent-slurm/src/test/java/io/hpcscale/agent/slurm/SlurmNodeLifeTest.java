package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hpcscale.cloud.azure.events.NodeNotices;
import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.cloud.azure.events.ScheduledEventsEndpoint;
import io.hpcscale.cloud.azure.events.ScheduledEventsImitation;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.WaitReasonsDocument;
import io.hpcscale.common.store.DocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's life around its work, against a real Slurm 22.05: health before service, and a Spot eviction announced by
 * Azure, end to end: the node's event watch (against the imitation of the metadata
 * service) writes its notice, the real agent drains the node in a real Slurm 22.05 and requeues its job with
 * {@code scontrol requeue}, and the job runs on the pool's other node (once Slurm's own hold of a requeued job, about
 * two minutes, is lifted); the test then carries out the eviction by
 * stopping the first node's slurmd, as a deallocation would, and the job runs on.
 */
class SlurmNodeLifeTest {
    private static final Duration NOTICE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @BeforeEach
    void needsRoot() throws IOException {
        RealSlurm.assumeAvailable("real-Slurm node life test", dir);
    }

    private Path config(RealSlurm slurm, String... extra) throws IOException {
        Path file = dir.resolve("hpcscale.properties");
        List<String> lines = new java.util.ArrayList<>(List.of(
                "store.sqlite.path = " + dir.resolve("clusterload.db"),
                "agent.host = head",
                "agent.commandTimeout = 20s",
                "agent.slurm.slurmConf = " + slurm.slurmConf(),
                "scaler.staleAfter = 1m",
                "pool.batch.provider = command",
                "pool.batch.cpus = 4",
                "pool.batch.memoryMb = 8000",
                "pool.batch.max = 2",
                "pool.batch.bootTimeout = 2m",
                "pool.batch.idleTimeout = 10m",
                "pool.batch.command.list = " + slurm.nodeCommand("list"),
                "pool.batch.command.start = " + slurm.nodeCommand("start"),
                "pool.batch.command.stop = " + slurm.nodeCommand("stop")));
        lines.addAll(List.of(extra));
        Files.write(file, lines);
        return file;
    }

    @Test
    void aNodeWhoseHealthCheckFailedTakesNoJobAndSaysWhyInItsReason() throws Exception {
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "2");
                SlurmServices services = new SlurmServices(dir, config(slurm, "pool.batch.healthCheck = /usr/sbin/nhc",
                        "pool.batch.min = 0"))) {
            slurm.nodeStart("node1");
            slurm.nodeStart("node2");
            services.until(slurm, Duration.ofMinutes(1), "both nodes up",
                    () -> slurm.node("node1").path("state").asText().equals("idle")
                            && slurm.node("node2").path("state").asText().equals("idle"));
            DocumentStore documents = new DocumentStore(services.store);
            // As hpcscale-node-check writes them at boot, before slurmd: one node failed, one passed.
            documents.upsert(List.of(HealthDocument.of("node1", HealthDocument.State.FAILED, "exit status 1\n"
                    + "ERROR:  nhc:  Health check failed:  check_hw_ib:  No IB port mlx5_ib0:1 is ACTIVE",
                    Instant.now()), HealthDocument.of("node2", HealthDocument.State.PASSED, "", Instant.now())));
            documents.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, Instant.now())));
            services.agent.runOnce(Instant.now());
            String reason = slurm.node("node1").path("reason").asText();
            assertTrue(slurm.node("node1").path("state_flags").toString().contains("DRAIN"), "node1 held");
            assertTrue(reason.contains("health check failed: ERROR:  nhc:  Health check failed:  check_hw_ib"), reason);
            String job = slurm.sbatch("-N", "1", "--wrap", "sleep 5");
            services.until(slurm, Duration.ofMinutes(1), "the job running",
                    () -> slurm.jobs().get(job).path("job_state").asText().equals("RUNNING"));
            assertEquals("node2", nodeOf(slurm.jobs().get(job)), "the job goes to the node that passed");
            System.out.printf("real Slurm, a failed health check: node1 drained, sinfo's reason: %s%n", reason);
        }
    }

    /**
     * The scaler finds a job it can never place (it asks for the feature ib, which the pool does not say its nodes
     * have: no {@code pool.batch.resource.ib}) and says why; the agent writes it to the job's AdminComment, which
     * {@code scontrol show job} shows, and an agent started since takes it back once the reason is gone.
     */
    @Test
    void aJobThePoolCanNeverRunShowsWhyInItsAdminComment() throws Exception {
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "2");
                SlurmServices services = new SlurmServices(dir, config(slurm, "pool.batch.min = 0"))) {
            String job = slurm.sbatch("-N", "1", "--constraint=ib", "--wrap", "sleep 5");
            services.cycle(slurm);
            services.cycle(slurm);
            String shown = adminComment(slurm, job);
            assertTrue(shown.startsWith("hpcscale: pool batch cannot run it: "), shown);
            System.out.printf("real Slurm, a job the pool cannot run: scontrol show job %s says AdminComment=%s%n",
                    job, shown);

            // A restarted agent knows nothing it showed but what squeue --json says of the job's AdminComment.
            DocumentStore documents = new DocumentStore(services.store);
            Agent restarted = new Agent(services.adapter, documents, new PoolMap(Map.of("batch", "batch"), Map.of()),
                    "head", "test");
            documents.upsert(List.of(WaitReasonsDocument.none("batch"),
                    new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, Instant.now())));
            restarted.runOnce(Instant.now());
            assertEquals("", adminComment(slurm, job), "taken back once the reason is gone");
        }
    }

    /** The job's AdminComment as {@code scontrol show job -o} prints it; empty when it has none. */
    private static String adminComment(RealSlurm slurm, String job) throws IOException, InterruptedException {
        String line = slurm.scontrol("show", "job", "-o", job);
        int at = line.indexOf("AdminComment=");
        if (at < 0) {
            return "";
        }
        String rest = line.substring(at + "AdminComment=".length());
        // scontrol prints the comment as it is, spaces included, then the next Name=value.
        java.util.regex.Matcher next = java.util.regex.Pattern.compile(" [A-Za-z]+=").matcher(rest);
        return (next.find() ? rest.substring(0, next.start()) : rest).strip();
    }

    private static String nodeOf(JsonNode job) {
        return job.path("nodes").asText("");
    }

    @Test
    void aPreemptedNodesJobIsRequeuedBeforeTheEvictionAndRunsOnAnotherNode() throws Exception {
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "2");
                SlurmServices services = new SlurmServices(dir, config(slurm, "pool.batch.min = 2"));
                ScheduledEventsImitation imds = new ScheduledEventsImitation("batch_1")) {
            String job = slurm.sbatch("-N", "1", "-c", "4", "--requeue", "--wrap", "sleep 120");
            services.until(slurm, Duration.ofMinutes(2), "the job running",
                    () -> slurm.jobs().get(job).path("job_state").asText().equals("RUNNING"));
            String first = nodeOf(slurm.jobs().get(job));
            NodeNotices watch = new NodeNotices(new ScheduledEventsEndpoint(imds.endpoint(), Duration.ofSeconds(5),
                    Duration.ofSeconds(5)), new DocumentStore(services.store), first, "batch_1");

            Instant evictionAt = Instant.now().plus(NOTICE);
            imds.schedule("Preempt", evictionAt, "Platform", "batch_1");
            Instant[] requeuedAt = new Instant[1];
            String[] reason = new String[1];
            services.until(slurm, Duration.ofMinutes(3), "the job running on another node", () -> {
                watch.poll(Instant.now());
                JsonNode now = slurm.jobs().get(job);
                if (requeuedAt[0] == null && now.path("restart_cnt").asInt() >= 1) {
                    requeuedAt[0] = Instant.now();
                    String flags = slurm.node(first).path("state_flags").toString();
                    assertTrue(flags.contains("DRAIN"), "no job may land on the node Azure takes: " + flags);
                    reason[0] = slurm.node(first).path("reason").asText();
                    // Slurm holds a requeued job back for about two minutes (122 s measured, reason BeginTime);
                    // the test lifts the hold as an administrator would, to learn where the job goes now.
                    slurm.scontrol("update", "jobid=" + job, "StartTime=now");
                }
                return now.path("job_state").asText().equals("RUNNING") && !nodeOf(now).equals(first);
            });
            Instant runningAgain = Instant.now();
            assertTrue(requeuedAt[0].isBefore(evictionAt), "requeued before the eviction");
            slurm.scontrol("update", "nodename=" + first, "state=down", "reason=evicted");
            Runtime.getRuntime().exec(new String[] {"sh", "-c", slurm.nodeCommand("stop").replace("{node}", first)})
                    .waitFor();
            services.cycle(slurm);
            assertEquals("RUNNING", slurm.jobs().get(job).path("job_state").asText(), "the eviction took nothing");
            assertTrue(reason[0].startsWith("hpcscale: Azure Preempt not before "), reason[0]);
            System.out.printf("real Slurm, Spot eviction: job %s requeued %d s after the Preempt notice, %d s "
                    + "before the eviction; running again on %s %d s after the notice; the node's reason: %s%n", job,
                    Duration.between(evictionAt.minus(NOTICE), requeuedAt[0]).toSeconds(),
                    Duration.between(requeuedAt[0], evictionAt).toSeconds(), nodeOf(slurm.jobs().get(job)),
                    Duration.between(evictionAt.minus(NOTICE), runningAgain).toSeconds(), reason[0]);
            assertEquals(List.of(), slurm.violations(), "a node was stopped while Slurm had a job on it");
        }
    }
}
