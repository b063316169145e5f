package io.hpcscale.simulator;

import static io.hpcscale.simulator.Clusters.cluster;
import static io.hpcscale.simulator.Clusters.job;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.scaler.run.PoolResume;
import io.hpcscale.scaler.run.ScalerEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Nodes whose health check fails, while jobs wait and the scheduler tries at random moments to put a job on any node
 * whose VM runs: none gets a job, each is replaced, five in a row protect the pool, and {@code resume} lifts it.
 */
class HealthCheckRaceTest {

    private static PoolConfig checkedPool() {
        return PoolConfigs.withDefaults("p", new VmShape(4, 16384, 0), 2, Map.of("idleTimeout",
                Durations.format(Duration.ofMinutes(2)), "healthCheck", "/usr/sbin/nhc", "bootTimeout", "10m"));
    }

    /** The scheduler places a one-node job on a node whose VM runs, if it will take it. */
    private static void raceAJobOntoARunningVm(SimulatedCluster cluster, Random random, int n) {
        List<String> running = new ArrayList<>();
        for (Instance instance : cluster.cloud().instances("p")) {
            if (cluster.cloud().nodeUp("p", instance.nodeName()) && !cluster.scheduler().busy(instance.nodeName())) {
                running.add(instance.nodeName());
            }
        }
        if (running.isEmpty()) {
            return;
        }
        SimJob job = job(cluster, "race-" + n, 1, Duration.ofSeconds(30));
        cluster.scheduler().submit(job);
        try {
            cluster.scheduler().startOn(job, List.of(running.get(random.nextInt(running.size()))));
        } catch (IllegalStateException refused) {
            // Out of service, or its daemon not up: the job waits in the queue.
        }
    }

    @Test
    void aNodeThatFailsItsCheckNeverGetsAJobIsReplacedAndFiveFailuresProtectThePool() throws Exception {
        SimulatedCluster cluster = cluster(checkedPool(), 2, Duration.ofMinutes(1));
        List<ScalerEvent> events = new ArrayList<>();
        cluster.events().addListener(events::add);
        cluster.nodePrograms().failNextChecks("p", 5);
        cluster.scheduler().submit(job(cluster, "waiting", 1, Duration.ofMinutes(3)));
        Random random = new Random(7);
        int n = 0;
        while (!cluster.scalerState("p").bootHealth().protectedNow()) {
            assertTrue(n < 2000, "not protected after " + n + " steps: " + events);
            cluster.clock().advance(Duration.ofSeconds(5 + random.nextInt(20)));
            raceAJobOntoARunningVm(cluster, random, n++);
            cluster.agentCycle();
            raceAJobOntoARunningVm(cluster, random, n++);
            cluster.scalerCycle();
        }
        assertEquals(List.of(), cluster.scheduler().violations(), "no job on a node whose check had not passed");
        assertEquals(5, cluster.nodePrograms().failedChecks());
        assertEquals(5, events.stream().filter(e -> e.kind() == EventKind.UNHEALTHY && e.outcome().ok()).count(),
                "each failed node replaced: " + events);
        assertEquals(0, cluster.scheduler().finishedJobs().size() + cluster.scheduler().runningJobs());

        PoolResume.resume(cluster.documents(), "p", cluster.events(), cluster.clock().instant(), "the test");
        assertFalse(cluster.scalerState("p").bootHealth().protectedNow());
        for (int step = 0; step < 200 && cluster.scheduler().queuedJobs() + cluster.scheduler().runningJobs() > 0;
                step++) {
            cluster.clock().advance(Duration.ofSeconds(15));
            cluster.agentCycle();
            cluster.scalerCycle();
        }
        assertTrue(cluster.scheduler().finishedJobs().stream().anyMatch(j -> j.id().equals("waiting")),
                "resumed, a node that passed its check ran the job");
        assertEquals(List.of(), cluster.scheduler().violations());
    }
}
