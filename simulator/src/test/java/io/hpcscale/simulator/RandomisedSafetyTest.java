package io.hpcscale.simulator;

import static io.hpcscale.simulator.Clusters.cluster;
import static io.hpcscale.simulator.Clusters.pool;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.run.ScalerEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Many seeds of random interleavings: agent cycles, scaler cycles, scheduler steps, submissions, and jobs placed by
 * the scheduler on any free node at any moment (also between a drain request and the agent's offline). Whatever the
 * order, no instance may stop while its node runs a job.
 */
class RandomisedSafetyTest {
    private static final int SEEDS = 300;

    @Test
    void noInstanceIsEverStoppedWhileItsNodeRunsAJob() throws Exception {
        long stops = 0;
        long waitsForJobs = 0;
        long jobsOnDrainedNodes = 0;
        List<String> violations = new ArrayList<>();
        for (int seed = 1; seed <= SEEDS; seed++) {
            Random random = new Random(seed);
            SimulatedCluster cluster = cluster(pool(random.nextInt(2), 6, Duration.ofMinutes(1 + random.nextInt(3))),
                    8, Duration.ofSeconds(30 + random.nextInt(120)));
            List<ScalerEvent> events = new ArrayList<>();
            cluster.events().addListener(events::add);
            int jobs = 0;
            for (int step = 0; step < 400; step++) {
                cluster.clock().advance(Duration.ofSeconds(random.nextInt(45)));
                switch (random.nextInt(6)) {
                    case 0 -> cluster.agentCycle();
                    case 1 -> cluster.scalerCycle();
                    case 2 -> cluster.scheduler().step();
                    case 3 -> {
                        if (random.nextInt(3) == 0) {
                            cluster.scheduler().submit(new SimJob("j" + seed + "-" + jobs++, "p",
                                    cluster.clock().instant(), 1 + random.nextInt(3),
                                    Duration.ofSeconds(20 + random.nextInt(400)), Duration.ofMinutes(10), false));
                        }
                    }
                    default -> {
                        if (landJobOnDrainedOrFreeNode(cluster, random, "r" + seed + "-" + jobs++)) {
                            jobsOnDrainedNodes++;
                        }
                    }
                }
            }
            violations.addAll(cluster.scheduler().violations().stream().map(v -> "seed " + v).toList());
            stops += events.stream().filter(e -> e.kind() == EventKind.STOP && e.outcome().ok()).count();
            waitsForJobs += events.stream().filter(e -> e.kind() == EventKind.WAITING_FOR_JOBS).count();
        }
        assertTrue(violations.isEmpty(), violations.size() + " violations, the first: "
                + violations.subList(0, Math.min(5, violations.size())));
        assertTrue(stops > SEEDS, "the interleavings must actually stop instances: " + stops);
        assertTrue(jobsOnDrainedNodes > 50, "jobs must land on nodes with a pending drain: " + jobsOnDrainedNodes);
        assertTrue(waitsForJobs > 10, "some drained nodes must be found running a late job: " + waitsForJobs);
        System.out.printf("%d seeds: %d stops, %d jobs landed on nodes being drained, %d drained nodes waited for a "
                + "job, 0 violations%n", SEEDS, stops, jobsOnDrainedNodes, waitsForJobs);
    }

    /** Places a one-node job on a free, up, online node, preferring one with a pending drain; true if it did. */
    private static boolean landJobOnDrainedOrFreeNode(SimulatedCluster cluster, Random random, String id) {
        List<String> candidates = new ArrayList<>();
        List<String> drained = new ArrayList<>();
        for (var instance : cluster.cloud().instances("p")) {
            String node = instance.nodeName();
            if (!cluster.cloud().nodeUp("p", node) || cluster.scheduler().busy(node)) {
                continue;
            }
            candidates.add(node);
            if (cluster.hasDrainRequest(node)) {
                drained.add(node);
            }
        }
        List<String> from = !drained.isEmpty() && random.nextBoolean() ? drained : candidates;
        if (from.isEmpty()) {
            return false;
        }
        String node = from.get(random.nextInt(from.size()));
        SimJob job = new SimJob(id, "p", cluster.clock().instant(), 1, Duration.ofSeconds(10 + random.nextInt(300)),
                Duration.ofMinutes(10), false);
        cluster.scheduler().submit(job);
        try {
            cluster.scheduler().startOn(job, List.of(node));
        } catch (IllegalStateException offline) {
            cluster.scheduler().step();
            return false;
        }
        return drained.contains(node);
    }
}
