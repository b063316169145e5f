package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.testing.CosmosTestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A container provisioned at 400 RU/s (about $23 a month), the local server refusing with 429 whatever goes beyond,
 * under the sizing cluster (10 pools, 5,000 jobs, 500 nodes) and a burst of 1,000 submissions over 10 minutes,
 * while 1% of the jobs change at every agent cycle: the scaler still starts nodes for new jobs within two of its
 * cycles, and nothing the agent read is lost.
 */
@ExtendWith(CosmosTestServer.class)
class ScalerOnThrottledCosmosTest {
    private static final int BURST = 1_000;
    private static final int AGENT_CYCLES = 5;

    @Test
    void aFourHundredRuContainerStillStartsNodesWithinTwoCyclesAndLosesNothing() throws Exception {
        CosmosTestServer.Running server = CosmosTestServer.running();
        try (CosmosClusterScenario cluster = new CosmosClusterScenario()) {
            cluster.agentCycle();
            cluster.scalerCycle();
            server.resetStats();
            server.throughput(400);
            int submitted = 0;
            for (int cycle = 0; cycle < AGENT_CYCLES; cycle++) {
                cluster.clock().advance(Duration.ofMinutes(1));
                cluster.scalerCycle();
                cluster.clock().advance(Duration.ofMinutes(1));
                cluster.churn(25);
                cluster.submit(BURST / AGENT_CYCLES);
                submitted += BURST / AGENT_CYCLES;
                cluster.agentCycle();
                // The scaler wakes on the agent's change, then runs its next timed cycle.
                cluster.scalerCycle();
                cluster.clock().advance(Duration.ofSeconds(5));
                cluster.scalerCycle();
                assertEquals(submitted, cluster.started(), "every new job has an instance started for it within "
                        + "two scaler cycles (burst step " + (cycle + 1) + ")");
            }
            assertTrue(server.stats().path("throttled").asInt() > 0, "the burst must meet the 400 RU/s limit");
            assertEquals(CosmosClusterScenario.POOLS * CosmosClusterScenario.NODES_PER_POOL + BURST,
                    cluster.activeInstances());
            assertEquals(cluster.jobs(), cluster.jobDocuments(), "every job the scheduler has is in the store");
        } finally {
            server.throughput(0);
        }
    }
}
