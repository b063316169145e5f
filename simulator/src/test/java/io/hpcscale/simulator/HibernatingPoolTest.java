package io.hpcscale.simulator;

import static io.hpcscale.simulator.Clusters.cluster;
import static io.hpcscale.simulator.Clusters.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pool with {@code stopAction = hibernate} and a health check, through the real agent and scaler: a node whose
 * check failed is deallocated, for a resume would bring it back as broken, and a node that served and went idle is
 * hibernated.
 */
class HibernatingPoolTest {

    @Test
    void aNodeThatFailedItsCheckIsDeallocatedAndOneThatWentIdleIsHibernated() throws Exception {
        PoolConfig pool = PoolConfigs.withDefaults("p", new VmShape(4, 16384, 0), 2, Map.of("idleTimeout", "2m",
                "healthCheck", "/usr/sbin/nhc", "bootTimeout", "10m", "stopAction", "hibernate"));
        SimulatedCluster cluster = cluster(pool, 2, Duration.ofMinutes(1));
        // Each stop as the cloud made it: whether the instance went down hibernated.
        List<Boolean> stoppedHibernated = new ArrayList<>();
        cluster.cloud().addListener((p, instance, from, evicted, at) -> {
            if (instance.state() == PowerState.STOPPED && from != PowerState.STOPPED) {
                stoppedHibernated.add(instance.hibernated());
            }
        });
        cluster.nodePrograms().failNextChecks("p", 1);
        cluster.scheduler().submit(job(cluster, "j", 1, Duration.ofMinutes(3)));

        for (int step = 0; step < 400 && (cluster.scheduler().finishedJobs().isEmpty()
                || cluster.cloud().activeInstances() > 0); step++) {
            cluster.clock().advance(Duration.ofSeconds(15));
            cluster.agentCycle();
            cluster.scalerCycle();
        }

        assertEquals(1, cluster.scheduler().finishedJobs().size());
        assertEquals(0, cluster.cloud().activeInstances(), "idle again: every instance stopped");
        assertTrue(stoppedHibernated.size() >= 2, "the failed node and the idle one: " + stoppedHibernated);
        assertFalse(stoppedHibernated.get(0), "the node whose check failed was deallocated");
        assertTrue(stoppedHibernated.get(stoppedHibernated.size() - 1), "the node that went idle was hibernated");
        assertEquals(List.of(), cluster.scheduler().violations());
    }
}
