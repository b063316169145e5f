package io.hpcscale.simulator;

import static io.hpcscale.simulator.Clusters.cluster;
import static io.hpcscale.simulator.Clusters.pool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.StopKind;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Spot evictions on a whole simulated cluster. */
class SpotEvictionTest {
    @Test
    void anEvictedSpotInstanceIsStartedAgainWhileDemandRemains() throws Exception {
        SimulatedCluster cluster = cluster(pool(0, 2, Duration.ofMinutes(5)), 2,
                Duration.ofMinutes(1));
        cluster.scheduler().submit(new SimJob("long", "p", cluster.clock().instant(), 1, Duration.ofHours(1),
                Duration.ofHours(2), false));
        for (int i = 0; i < 4; i++) {
            cluster.agentCycle();
            cluster.scalerCycle();
            cluster.clock().advance(Duration.ofMinutes(1));
        }
        assertEquals(1, cluster.scheduler().runningJobs());
        Instance victim = cluster.cloud().instances("p").stream().filter(i -> i.state() == PowerState.RUNNING)
                .findFirst().orElseThrow();
        cluster.cloud().evict("p", victim.id());
        assertEquals(1, cluster.scheduler().queuedJobs(), "the scheduler requeued the job");
        for (int i = 0; i < 4; i++) {
            cluster.agentCycle();
            cluster.scalerCycle();
            cluster.clock().advance(Duration.ofMinutes(1));
        }
        cluster.scheduler().step();
        assertEquals(1, cluster.scheduler().runningJobs(), "running again on a restarted instance");
        assertEquals(1, cluster.scheduler().evictedJobs());
        assertTrue(cluster.scheduler().violations().isEmpty());
        assertEquals(1, cluster.scalerState("p").evictions(), "the scaler counted the eviction once");
        assertEquals(StopKind.EVICTED, cluster.scalerState("p").instance(victim.id()).orElseThrow().stopKind(),
                "its record says why it stopped until it was started again");
    }
}
