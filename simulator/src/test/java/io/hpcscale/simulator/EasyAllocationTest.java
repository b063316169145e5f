package io.hpcscale.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the Slurm model powers up for: the nodes EASY backfilling would give jobs if every node were up. */
class EasyAllocationTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static SimulatedScheduler schedulerWith(SimJob... jobs) {
        SettableClock clock = new SettableClock(T0);
        SimulatedCloud cloud = new SimulatedCloud(clock);
        cloud.addScaleSet("p", 10, "p-vm", Duration.ofMinutes(3));
        SimulatedScheduler scheduler = new SimulatedScheduler(cloud, clock, Map.of("p", "p"), 1, 4096);
        for (SimJob job : jobs) {
            scheduler.submit(job);
        }
        return scheduler;
    }

    private static SimJob job(String id, int nodes, Duration requested) {
        return new SimJob(id, "p", T0, nodes, requested, requested, false);
    }

    @Test
    void reservesForTheFirstJobThatWaitsBehindTheHeadJobsItStarts() {
        // A starts on 6 of 10; B (8) waits for A's end in an hour with 2 nodes to spare; C (4) would delay B.
        SimulatedScheduler scheduler = schedulerWith(job("A", 6, Duration.ofHours(1)), job("B", 8,
                Duration.ofHours(1)), job("C", 4, Duration.ofHours(2)));
        assertEquals(6, scheduler.nodesEasyWouldAllocate(10, T0));
    }

    @Test
    void backfillsAJobThatEndsBeforeTheReservationOrFitsItsSpareNodes() {
        SimulatedScheduler ending = schedulerWith(job("A", 6, Duration.ofHours(1)), job("B", 8, Duration.ofHours(1)),
                job("C", 4, Duration.ofMinutes(30)));
        assertEquals(10, ending.nodesEasyWouldAllocate(10, T0));
        SimulatedScheduler spare = schedulerWith(job("A", 6, Duration.ofHours(1)), job("B", 8, Duration.ofHours(1)),
                job("C", 2, Duration.ofHours(2)));
        assertEquals(8, spare.nodesEasyWouldAllocate(10, T0));
    }
}
