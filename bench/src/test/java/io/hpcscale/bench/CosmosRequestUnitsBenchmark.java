package io.hpcscale.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hpcscale.common.testing.CosmosTestServer;
import io.hpcscale.scaler.run.CosmosClusterScenario;
import io.hpcscale.scaler.run.CosmosClusterScenario.Cost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What hpcscale costs on Cosmos DB, in request units as the local server charges them by Azure's published costs
 * (test-servers/README.md): 10 pools, 5,000 jobs, 500 nodes, 1% of the jobs changing at each agent cycle, the default
 * intervals (agent 120 s and its quick check 10 s; scaler 60 s, woken by an agent's change, and its quick check 5 s).
 * Then a burst of 1,000 submissions over 10 minutes, and the hourly whole reads.
 */
@ExtendWith(CosmosTestServer.class)
class CosmosRequestUnitsBenchmark {
    private static final int STEADY_CYCLES = 5;
    private static final int BURST = 1_000;
    private static final int BURST_CYCLES = 5;
    private static final Duration AGENT_INTERVAL = Duration.ofSeconds(120);
    /** Cycles run back to back here; a read of changes goes back over its last second unless 2 s have passed. */
    private static final long SETTLE_MILLIS = 2_100;

    @Test
    void requestUnitsOfTheSizingCluster() throws Exception {
        CosmosTestServer.running().throughput(0);
        try (CosmosClusterScenario cluster = new CosmosClusterScenario()) {
            Measure.report("machine: " + Measure.machine());
            Cost firstAgent = cluster.agentCycle();
            Cost firstScaler = cluster.scalerCycle();
            Thread.sleep(SETTLE_MILLIS);
            Cost secondScaler = cluster.scalerCycle();
            Measure.report(String.format("cosmos RU, start-up: the agent's first cycle writes every document: "
                    + "%.0f RU in %d requests; the scaler's first cycle reads every pool whole: %.0f RU; its second "
                    + "goes back once over the last second of the agent's writes: %.0f RU",
                    firstAgent.requestUnits(), firstAgent.requests(), firstScaler.requestUnits(),
                    secondScaler.requestUnits()));

            List<Cost> agent = new ArrayList<>();
            List<Cost> woken = new ArrayList<>();
            List<Cost> timed = new ArrayList<>();
            List<Cost> scalerQuick = new ArrayList<>();
            List<Cost> agentQuick = new ArrayList<>();
            for (int i = 0; i < STEADY_CYCLES; i++) {
                boolean last = i == STEADY_CYCLES - 1 || i == 0;
                cluster.clock().advance(Duration.ofSeconds(60));
                // A minute apart in the scenario, and more than the store's settling time of a second apart here too.
                Thread.sleep(SETTLE_MILLIS);
                CosmosTestServer.running().resetStats();
                timed.add(cluster.scalerCycle());
                breakdown(last, "steady scaler cycle with nothing new");
                scalerQuick.add(cluster.scalerQuickCheck());
                agentQuick.add(cluster.agentQuickCheck());
                cluster.clock().advance(Duration.ofSeconds(60));
                cluster.churn(CosmosClusterScenario.JOBS / 100 / 2);
                CosmosTestServer.running().resetStats();
                agent.add(cluster.agentCycle());
                breakdown(last, "steady agent cycle");
                Thread.sleep(SETTLE_MILLIS);
                CosmosTestServer.running().resetStats();
                woken.add(cluster.scalerCycle());
                breakdown(last, "steady scaler cycle woken by the agent");
            }
            double perInterval = mean(agent) + mean(woken) + 2 * mean(timed) + 24 * mean(scalerQuick)
                    + 12 * mean(agentQuick);
            double steadyPerSecond = perInterval / AGENT_INTERVAL.toSeconds();
            report("steady, agent cycle (50 job documents changed, 25 nodes)", agent);
            report("steady, scaler cycle woken by the agent's change", woken);
            report("steady, scaler cycle with nothing new", timed);
            report("scaler quick check (one heartbeat read)", scalerQuick);
            report("agent quick check (the drain marker)", agentQuick);

            // An hour of quiet cycles (a pool is read at least every 5 minutes), then the hourly whole reads.
            for (int minute = 0; minute < 55; minute += 5) {
                cluster.clock().advance(Duration.ofMinutes(5));
                cluster.scalerCycle();
            }
            List<Cost> hourly = new ArrayList<>();
            for (int i = 0; i < CosmosClusterScenario.POOLS; i++) {
                cluster.clock().advance(Duration.ofSeconds(60));
                hourly.add(cluster.scalerCycle());
            }
            report("scaler cycles of the hourly whole reads (one pool a cycle)", hourly);
            double hourlyPerSecond = (sum(hourly) - hourly.size() * mean(timed)) / 3600.0;
            double averagePerSecond = steadyPerSecond + hourlyPerSecond;
            Measure.report(String.format("cosmos RU, average at the default intervals: %.1f RU/s (steady %.1f, the "
                    + "hourly whole reads %.1f); goal at most 100 RU/s and no steady cycle over 400 RU",
                    averagePerSecond, steadyPerSecond, hourlyPerSecond));
            Measure.report(String.format("cosmos RU, a free-tier account (1,000 RU/s) at 50 pools of this size: "
                    + "%.0f RU/s on average (costs are per pool: 5 times the 10-pool figures); its agent's cycle "
                    + "about %.0f RU, spread by 429 retries over %.1f s of the account's budget",
                    averagePerSecond * 5, 5 * mean(agent), 5 * mean(agent) / 1000));

            List<Cost> burstAgent = new ArrayList<>();
            List<Cost> burstScaler = new ArrayList<>();
            long startedBefore = cluster.started();
            for (int i = 0; i < BURST_CYCLES; i++) {
                cluster.clock().advance(Duration.ofSeconds(60));
                burstScaler.add(cluster.scalerCycle());
                cluster.clock().advance(Duration.ofSeconds(60));
                cluster.churn(CosmosClusterScenario.JOBS / 100 / 2);
                cluster.submit(BURST / BURST_CYCLES);
                burstAgent.add(cluster.agentCycle());
                Thread.sleep(SETTLE_MILLIS);
                CosmosTestServer.running().resetStats();
                burstScaler.add(cluster.scalerCycle());
                breakdown(i == 0, "burst scaler cycle woken by the agent");
            }
            report("burst of 1,000 submissions over 10 minutes, agent cycle (200 new jobs each)", burstAgent);
            report("burst, scaler cycle (200 instances started after each agent cycle)", burstScaler);
            Measure.report(String.format("cosmos RU, burst: %d instances started for %d new jobs",
                    cluster.started() - startedBefore, BURST));
            assertTrue(cluster.started() - startedBefore >= BURST, "an instance for every new job");
        }
    }

    /**
     * The same cluster on a container provisioned with 400 RU/s, each program paced by the SDK to
     * {@value #PACED_RU_PER_SECOND} RU/s (the shares add up to half the container's rate) with the default request
     * timeout: how long each kind of cycle then takes, the most the container was charged in any one second, and how
     * many requests it answered with 429.
     */
    @Test
    void pacedProgramsOnA400RequestUnitContainer() throws Exception {
        CosmosTestServer.running().throughput(400);
        try (CosmosClusterScenario cluster = new CosmosClusterScenario(PACED_RU_PER_SECOND)) {
            CosmosTestServer.running().resetStats();
            paced("start-up, the agent's first cycle", cluster::agentCycle);
            paced("start-up, the scaler's first cycle", cluster::scalerCycle);
            for (int i = 0; i < 2; i++) {
                cluster.clock().advance(Duration.ofSeconds(60));
                cluster.churn(CosmosClusterScenario.JOBS / 100 / 2);
                paced("steady agent cycle", cluster::agentCycle);
                Thread.sleep(SETTLE_MILLIS);
                cluster.clock().advance(Duration.ofSeconds(60));
                paced("steady scaler cycle woken by the agent", cluster::scalerCycle);
            }
            for (int i = 0; i < 2; i++) {
                cluster.clock().advance(Duration.ofSeconds(60));
                cluster.churn(CosmosClusterScenario.JOBS / 100 / 2);
                cluster.submit(BURST / BURST_CYCLES);
                paced("burst agent cycle (200 new jobs)", cluster::agentCycle);
                Thread.sleep(SETTLE_MILLIS);
                cluster.clock().advance(Duration.ofSeconds(60));
                paced("burst scaler cycle", cluster::scalerCycle);
            }
        } finally {
            CosmosTestServer.running().throughput(0);
        }
    }

    private static final int PACED_RU_PER_SECOND = 100;

    private interface CycleRun {
        Cost run() throws Exception;
    }

    private static void paced(String what, CycleRun cycle) throws Exception {
        CosmosTestServer.running().resetStats();
        long began = System.nanoTime();
        Cost cost = cycle.run();
        double seconds = (System.nanoTime() - began) / 1e9;
        JsonNode stats = CosmosTestServer.running().stats();
        Measure.report(String.format("cosmos RU, paced to %d RU/s on a 400 RU/s container, %s: %.0f RU in %.1f s, "
                + "busiest second %.0f RU, %d answered 429", PACED_RU_PER_SECOND, what, cost.requestUnits(), seconds,
                stats.path("busiestSecondCharge").asDouble(), stats.path("throttled").asLong()));
    }

    /** Where a cycle's request units went, by request kind and document type, largest first. */
    private static void breakdown(boolean show, String what) {
        if (!show) {
            return;
        }
        List<String> parts = new ArrayList<>();
        CosmosTestServer.running().stats().path("chargeByType").fields().forEachRemaining(e -> parts.add(
                String.format("%s %.0f", e.getKey(), e.getValue().asDouble())));
        parts.sort((a, b) -> Double.compare(Double.parseDouble(b.substring(b.lastIndexOf(' ') + 1)),
                Double.parseDouble(a.substring(a.lastIndexOf(' ') + 1))));
        Measure.report("cosmos RU, where a " + what + " spends: " + String.join(", ", parts));
    }

    private static void report(String what, List<Cost> costs) {
        Measure.report(String.format("cosmos RU, %s: mean %.1f RU, largest %.1f RU, %.1f requests", what, mean(costs),
                max(costs), costs.stream().mapToLong(Cost::requests).average().orElse(0)));
    }

    private static double mean(List<Cost> costs) {
        return stat(costs, list -> list.stream().mapToDouble(Cost::requestUnits).average().orElse(0));
    }

    private static double max(List<Cost> costs) {
        return stat(costs, list -> list.stream().mapToDouble(Cost::requestUnits).max().orElse(0));
    }

    private static double sum(List<Cost> costs) {
        return stat(costs, list -> list.stream().mapToDouble(Cost::requestUnits).sum());
    }

    private static double stat(List<Cost> costs, Function<List<Cost>, Double> f) {
        return f.apply(costs);
    }
}
