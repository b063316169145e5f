package io.hpcscale.simulator;

import static io.hpcscale.simulator.Clusters.cluster;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pool of target = fixed on a whole simulated cluster, with the agent reporting its nodes: the count is kept
 * through an eviction storm and a scaler restart, and lowering it drains idle nodes first and never stops a busy one.
 */
class FixedTargetTest {

    private static SimulatedCluster fixedCluster(int size) {
        return cluster(PoolConfigs.withDefaults("p", new VmShape(4, 16384, 0), size, Map.of("target", "fixed")),
                size, Duration.ofMinutes(1));
    }

    private static long active(SimulatedCluster cluster) {
        return cluster.cloud().instances("p").stream().filter(i -> i.state().active()).count();
    }

    private static void cycles(SimulatedCluster cluster, int count) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            cluster.agentCycle();
            cluster.scalerCycle();
            cluster.clock().advance(Duration.ofMinutes(1));
        }
    }

    @Test
    void halfTheFleetEvictedAtOnceIsBackToTargetWithinTwoCyclesAcrossARestart() throws Exception {
        SimulatedCluster cluster = fixedCluster(20);
        cluster.setTarget("p", 16);
        cycles(cluster, 3);
        assertEquals(16, active(cluster));

        List<Instance> running = cluster.cloud().instances("p").stream()
                .filter(i -> i.state() == PowerState.RUNNING).toList();
        running.subList(0, 8).forEach(i -> cluster.cloud().evict("p", i.id()));
        assertEquals(8, active(cluster));
        cluster.restartScaler();

        int cycles = 0;
        while (active(cluster) < 16 && cycles < 5) {
            cluster.agentCycle();
            cluster.scalerCycle();
            cycles++;
        }
        assertTrue(cycles <= 2, "back to 16 in " + cycles + " cycles");
        assertEquals(16, active(cluster));
        assertEquals(8, cluster.scalerState("p").evictions());
    }

    @Test
    void loweringTheTargetDrainsIdleNodesFirstAndNeverStopsABusyOne() throws Exception {
        SimulatedCluster cluster = fixedCluster(4);
        cluster.setTarget("p", 4);
        cycles(cluster, 3);
        cluster.scheduler().submit(new SimJob("render-1", "p", cluster.clock().instant(), 1, Duration.ofMinutes(30),
                Duration.ofHours(1), false));
        cycles(cluster, 2);
        assertEquals(1, cluster.scheduler().runningJobs());

        cluster.setTarget("p", 0);
        cycles(cluster, 6);
        assertEquals(1, active(cluster), "the busy node stays until its job ends");
        assertEquals(1, cluster.scheduler().runningJobs());

        cycles(cluster, 35);
        assertEquals(0, active(cluster), "then it is drained and stopped too");
        assertTrue(cluster.scheduler().violations().isEmpty(), cluster.scheduler().violations().toString());
    }
}
