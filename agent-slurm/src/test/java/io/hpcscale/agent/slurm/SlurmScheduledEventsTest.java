package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hpcscale.cloud.azure.events.NodeNotices;
import io.hpcscale.cloud.azure.events.ScheduledEventsEndpoint;
import io.hpcscale.cloud.azure.events.ScheduledEventsImitation;
import io.hpcscale.common.store.DocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spot eviction announced by Azure, end to end: the node's event watch (against the imitation of the metadata
 * service) writes its notice, the real agent drains the node in a real Slurm 22.05 and requeues its job with
 * {@code scontrol requeue}, and the job runs on the pool's other node (once Slurm's own hold of a requeued job, about
 * two minutes, is lifted); the test then carries out the eviction by
 * stopping the first node's slurmd, as a deallocation would, and the job runs on.
 */
class SlurmScheduledEventsTest {
    private static final Duration NOTICE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @BeforeEach
    void needsRoot() throws IOException {
        RealSlurm.assumeAvailable("real-Slurm Scheduled Events test", dir);
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
                "pool.batch.min = 2",
                "pool.batch.max = 2",
                "pool.batch.bootTimeout = 2m",
                "pool.batch.idleTimeout = 10m",
                "pool.batch.command.list = " + slurm.nodeCommand("list"),
                "pool.batch.command.start = " + slurm.nodeCommand("start"),
                "pool.batch.command.stop = " + slurm.nodeCommand("stop")));
        return file;
    }

    private static String nodeOf(JsonNode job) {
        return job.path("nodes").asText("");
    }

    @Test
    void aPreemptedNodesJobIsRequeuedBeforeTheEvictionAndRunsOnAnotherNode() throws Exception {
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", "2");
                SlurmServices services = new SlurmServices(dir, config(slurm));
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
            services.until(slurm, Duration.ofMinutes(3), "the job running on another node", () -> {
                watch.poll(Instant.now());
                JsonNode now = slurm.jobs().get(job);
                if (requeuedAt[0] == null && now.path("restart_cnt").asInt() >= 1) {
                    requeuedAt[0] = Instant.now();
                    String flags = slurm.node(first).path("state_flags").toString();
                    assertTrue(flags.contains("DRAIN"), "no job may land on the node Azure takes: " + flags);
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
            System.out.printf("real Slurm, Spot eviction: job %s requeued %d s after the Preempt notice, %d s "
                    + "before the eviction; running again on %s %d s after the notice%n", job,
                    Duration.between(evictionAt.minus(NOTICE), requeuedAt[0]).toSeconds(),
                    Duration.between(requeuedAt[0], evictionAt).toSeconds(), nodeOf(slurm.jobs().get(job)),
                    Duration.between(evictionAt.minus(NOTICE), runningAgain).toSeconds());
            assertEquals(List.of(), slurm.violations(), "a node was stopped while Slurm had a job on it");
        }
    }
}
