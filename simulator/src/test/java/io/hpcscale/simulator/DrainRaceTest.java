package io.hpcscale.simulator;

import static io.hpcscale.simulator.Clusters.cluster;
import static io.hpcscale.simulator.Clusters.job;
import static io.hpcscale.simulator.Clusters.pool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.run.ScalerEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job lands on a node between the scaler's drain request and the agent's offline: the node must not stop. */
class DrainRaceTest {

    private static PowerState state(SimulatedCluster cluster) {
        return cluster.cloud().instances("p").get(0).state();
    }

    @Test
    void aJobThatLandsAfterTheDrainRequestKeepsTheInstanceUntilItEnds() throws Exception {
        SimulatedCluster cluster = cluster(pool(0, 1, Duration.ofMinutes(5)), 1, Duration.ofMinutes(1));
        List<ScalerEvent> events = new ArrayList<>();
        cluster.events().addListener(events::add);
        String node = "p-vm001";

        cluster.scheduler().submit(job(cluster, "first", 1, Duration.ofMinutes(2)));
        cluster.agentCycle();
        cluster.scalerCycle();
        assertEquals(PowerState.STARTING, state(cluster));
        cluster.clock().advance(Duration.ofMinutes(1));
        cluster.agentCycle();
        cluster.clock().advance(Duration.ofMinutes(2));
        cluster.agentCycle();
        assertEquals(1, cluster.scheduler().finishedJobs().size());

        cluster.clock().advance(Duration.ofMinutes(6));
        cluster.agentCycle();
        cluster.scalerCycle();
        assertTrue(events.stream().anyMatch(e -> e.kind() == EventKind.DRAIN && e.instances().equals(List.of(node))),
                events.toString());

        SimJob late = job(cluster, "late", 1, Duration.ofMinutes(10));
        cluster.scheduler().submit(late);
        cluster.scheduler().startOn(late, List.of(node));

        cluster.clock().advance(Duration.ofSeconds(30));
        cluster.agentCycle();
        cluster.clock().advance(Duration.ofSeconds(30));
        cluster.scalerCycle();
        assertEquals(PowerState.RUNNING, state(cluster), "drained but running a job: not stopped");
        assertTrue(events.stream().anyMatch(e -> e.kind() == EventKind.WAITING_FOR_JOBS), events.toString());
        assertThrows(IllegalStateException.class, () -> cluster.scheduler().startOn(job(cluster, "x", 1,
                Duration.ofMinutes(1)), List.of(node)), "the scheduler places nothing on an offline node");

        for (int minute = 0; minute < 10; minute++) {
            cluster.clock().advance(Duration.ofMinutes(1));
            cluster.agentCycle();
            cluster.scalerCycle();
        }
        assertEquals(PowerState.STOPPED, state(cluster), "stopped once the job ended");
        assertEquals(2, cluster.scheduler().finishedJobs().size());
        assertTrue(cluster.scheduler().violations().isEmpty(), cluster.scheduler().violations().toString());
        Instance instance = cluster.cloud().instances("p").get(0);
        assertTrue(events.stream().anyMatch(e -> e.kind() == EventKind.STOP && e.instances().equals(List.of(
                instance.id())) && e.outcome().ok()), events.toString());
    }
}
