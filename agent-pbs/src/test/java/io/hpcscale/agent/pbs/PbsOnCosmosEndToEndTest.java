package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.testing.CosmosTestServer;
import io.hpcscale.common.testing.ServiceProcess;
import io.hpcscale.scaler.cli.ScalerMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production deployment in miniature for PBS: the real agent as its own process reading stand-in qstat and
 * pbsnodes (a small PBS server behind them, {@link StandInPbsServer}), the real scaler as its own process starting
 * and stopping the server's nodes through the command provider, each with its own configuration, sharing nothing
 * but the Cosmos DB endpoint. Default intervals, so the time from a new job to the start call is what an
 * administrator gets.
 */
@ExtendWith(CosmosTestServer.class)
class PbsOnCosmosEndToEndTest {
    private static final int ROUNDS = 10;

    @TempDir
    Path dir;

    private static long count(List<String[]> log, String action) {
        return log.stream().filter(e -> e[1].equals(action)).count();
    }

    @Test
    void agentAndScalerSharingOnlyCosmosStartNodesSecondsAfterANewJobAndStopThemDrained() throws Exception {
        List<String> nodes = new ArrayList<>();
        for (int i = 1; i <= ROUNDS; i++) {
            nodes.add("pbsnode" + i);
        }
        StandInPbs pbs = new StandInPbs(dir.resolve("pbs"));
        StandInPbsServer server = StandInPbsServer.wholeNodes(pbs, dir.resolve("cloud/vms"), nodes);
        Map<String, Path> power = server.powerCommands();
        ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
        ticks.scheduleWithFixedDelay(() -> {
            try {
                server.tick();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, 200, 200, TimeUnit.MILLISECONDS);
        String container = "e2e-pbs-" + UUID.randomUUID();
        Path agentConfig = ServiceProcess.config(dir, "head",
                ServiceProcess.cosmosSettings(dir.resolve("head"), container)
                + "agent.host = head\n"
                + "pool.workq.queue = workq\n");
        Path scalerConfig = ServiceProcess.config(dir, "manager",
                ServiceProcess.cosmosSettings(dir.resolve("manager"), container)
                + "pool.workq.provider = command\n"
                + "pool.workq.cpus = 4\n"
                + "pool.workq.memoryMb = 8000\n"
                + "pool.workq.max = " + ROUNDS + "\n"
                + "pool.workq.idleTimeout = 20s\n"
                + "pool.workq.command.list = " + power.get("list") + "\n"
                + "pool.workq.command.start = " + power.get("start") + " {node}\n"
                + "pool.workq.command.stop = " + power.get("stop") + " {node}\n");
        try (ServiceProcess agent = ServiceProcess.start("agent", PbsAgentMain.class.getName(), agentConfig,
                dir.resolve("head/agent.log"), List.of(pbs.directory()));
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
                String job = server.submit();
                ServiceProcess.awaitUntil(Duration.ofMinutes(3), "the start call for job " + job, services,
                        () -> count(server.powerLog(), "start") >= starts);
                Instant started = server.powerLog().stream().filter(e -> e[1].equals("start"))
                        .map(e -> Instant.ofEpochMilli((long) (Double.parseDouble(e[0]) * 1000)))
                        .max(Instant::compareTo).orElseThrow();
                latencies.add(Duration.between(submitted, started).toMillis() / 1000.0);
                jobs.add(job);
            }
            ServiceProcess.awaitUntil(Duration.ofMinutes(1), "every job running", services,
                    () -> jobs.stream().allMatch(server::running));
            assertEquals(ROUNDS, count(server.powerLog(), "start"), "one node per exclusive job, no more");

            server.endAll();
            ServiceProcess.awaitUntil(Duration.ofMinutes(5), "every node drained and stopped", services,
                    () -> count(server.powerLog(), "stop") == ROUNDS);
            assertEquals(List.of(), server.violations(), "a node was stopped while it ran a job");
            assertEquals(ROUNDS, pbs.calls().stream().filter(c -> c.startsWith("pbsnodes -o")).count(),
                    "every node was taken offline before its stop");

            List<Double> sorted = latencies.stream().sorted().toList();
            double median = (sorted.get(ROUNDS / 2 - 1) + sorted.get(ROUNDS / 2)) / 2;
            System.out.printf("PBS stand-in, agent and scaler as separate processes on Cosmos DB, default intervals: "
                    + "new job in qstat -> start call over %d jobs: median %.1f s, worst %.1f s (all: %s)%n",
                    ROUNDS, median, sorted.get(ROUNDS - 1), latencies);
            assertTrue(sorted.get(ROUNDS - 1) < 60, "seconds, not minutes: " + latencies);

            assertEquals(0, scaler.stop(), "SIGTERM: the scaler exits cleanly");
            assertEquals(0, agent.stop(), "SIGTERM: the agent exits cleanly");
        } finally {
            ticks.shutdownNow();
        }
    }
}
