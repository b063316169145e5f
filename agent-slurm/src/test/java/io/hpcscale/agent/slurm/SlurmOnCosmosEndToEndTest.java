package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hpcscale.common.testing.CosmosTestServer;
import io.hpcscale.common.testing.ServiceProcess;
import io.hpcscale.scaler.cli.ScalerMain;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production deployment in miniature: a real Slurm, the agent as its own process on the "head node" and the
 * scaler as its own process on the "manager VM", each with its own configuration, sharing nothing but the Cosmos DB
 * endpoint (the local protocol server). Default intervals throughout, so the time from sbatch to the start call is
 * what an administrator gets.
 */
@ExtendWith(CosmosTestServer.class)
class SlurmOnCosmosEndToEndTest {
    private static final int ROUNDS = 10;

    @TempDir
    Path dir;

    @BeforeEach
    void needsRoot() throws IOException {
        RealSlurm.assumeAvailable("real-Slurm on Cosmos end-to-end test", dir);
    }

    private static long count(List<String[]> log, String action) {
        return log.stream().filter(e -> e[1].equals(action)).count();
    }

    @Test
    void agentAndScalerSharingOnlyCosmosStartNodesSecondsAfterSbatchAndStopThemDrained() throws Exception {
        String container = "e2e-slurm-" + UUID.randomUUID();
        try (RealSlurm slurm = RealSlurm.start(dir.resolve("slurm"), "--static", Integer.toString(ROUNDS))) {
            Path agentConfig = ServiceProcess.config(dir, "head",
                ServiceProcess.cosmosSettings(dir.resolve("head"), container)
                    + "agent.host = head\n"
                    + "agent.slurm.slurmConf = " + slurm.slurmConf() + "\n"
                    + "pool.batch.partition = batch\n");
            Path scalerConfig = ServiceProcess.config(dir, "manager",
                ServiceProcess.cosmosSettings(dir.resolve("manager"), container)
                    + "pool.batch.provider = command\n"
                    + "pool.batch.cpus = 4\n"
                    + "pool.batch.memoryMb = 8000\n"
                    + "pool.batch.max = " + ROUNDS + "\n"
                    + "pool.batch.idleTimeout = 20s\n"
                    + "pool.batch.command.list = " + slurm.nodeCommand("list") + "\n"
                    + "pool.batch.command.start = " + slurm.nodeCommand("start") + "\n"
                    + "pool.batch.command.stop = " + slurm.nodeCommand("stop") + "\n");
            try (ServiceProcess agent = ServiceProcess.start("agent", SlurmAgentMain.class.getName(), agentConfig,
                    dir.resolve("head/agent.log"), List.of());
                    ServiceProcess scaler = ServiceProcess.start("scaler", ScalerMain.class.getName(), scalerConfig,
                            dir.resolve("manager/scaler.log"), List.of())) {
                List<ServiceProcess> services = List.of(agent, scaler);
                ServiceProcess.awaitUntil(Duration.ofMinutes(2), "both services ran a cycle", services,
                        () -> agent.output().contains("cycle: read") && scaler.output().contains("cycle: 1 pools"));

                List<Double> latencies = new ArrayList<>();
                List<String> jobs = new ArrayList<>();
                Random phase = new Random(1);
                for (int round = 1; round <= ROUNDS; round++) {
                    long starts = round;
                    // Jobs arrive at any moment, not just after the agent's last check.
                    Thread.sleep(phase.nextInt(10_000));
                    Instant submitted = Instant.now();
                    String job = slurm.sbatch("-N", "1", "--exclusive", "--wrap", "sleep 900");
                    jobs.add(job);
                    ServiceProcess.awaitUntil(Duration.ofMinutes(3), "the start call for job " + job, services,
                            () -> count(slurm.powerLog(), "start") >= starts);
                    Instant started = slurm.powerLog().stream().filter(e -> e[1].equals("start"))
                            .map(e -> RealSlurm.epoch(e[0])).max(Instant::compareTo).orElseThrow();
                    latencies.add(Duration.between(submitted, started).toMillis() / 1000.0);
                }
                ServiceProcess.awaitUntil(Duration.ofMinutes(2), "every job running", services, () -> {
                    for (String job : jobs) {
                        if (!"RUNNING".equals(state(slurm, job))) {
                            return false;
                        }
                    }
                    return true;
                });
                assertEquals(ROUNDS, count(slurm.powerLog(), "start"), "one node per exclusive job, no more");

                slurm.scancel(jobs);
                // The stand-in stop logs its line only once slurmd is gone: wait for both.
                ServiceProcess.awaitUntil(Duration.ofMinutes(5), "every node drained and stopped", services,
                        () -> slurm.runningNodes().isEmpty() && count(slurm.powerLog(), "stop") >= ROUNDS);
                assertEquals(ROUNDS, count(slurm.powerLog(), "stop"));
                assertEquals(List.of(), slurm.violations(), "a node was stopped while Slurm had a job on it");

                List<Double> sorted = latencies.stream().sorted().toList();
                double median = (sorted.get(ROUNDS / 2 - 1) + sorted.get(ROUNDS / 2)) / 2;
                System.out.printf("real Slurm, agent and scaler as separate processes on Cosmos DB, default "
                        + "intervals: sbatch -> start call over %d jobs: median %.1f s, worst %.1f s (all: %s)%n",
                        ROUNDS, median, sorted.get(ROUNDS - 1), latencies);
                assertTrue(sorted.get(ROUNDS - 1) < 60, "seconds, not minutes: " + latencies);

                assertEquals(0, scaler.stop(), "SIGTERM: the scaler exits cleanly");
                assertEquals(0, agent.stop(), "SIGTERM: the agent exits cleanly");
            }
        }
    }

    private static String state(RealSlurm slurm, String job) throws Exception {
        JsonNode known = slurm.jobs().get(job);
        return known == null ? null : known.path("job_state").asText();
    }
}
