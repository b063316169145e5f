package io.hpcscale.scaler.plan;

import static io.hpcscale.scaler.plan.PoolStateBuilder.NOW;
import static io.hpcscale.scaler.plan.PoolStateBuilder.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.scaler.documents.IdleLearning;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class IdleTimeAndWarmNodesTest {

    private static PoolStateBuilder adaptivePool() {
        PoolStateBuilder pool = new PoolStateBuilder();
        pool.extraSettings.putAll(Map.of("idlePolicy", "adaptive", "idleTimeoutMin", "1m", "idleTimeoutMax", "30m"));
        return pool;
    }

    private static IdleLearning learned(long gapSeconds, long bootSeconds) {
        return new IdleLearning(NOW.minusSeconds(600), Collections.nCopies(50, gapSeconds), List.of(bootSeconds));
    }

    @Test
    void keepsAnIdleNodeUntilTheNextWorkWhenWorkComesSoonerThanABootWouldCost() {
        assertEquals(100, IdleTimeouts.cheapest(Collections.nCopies(50, 100L), 180, 60, 1800));
    }

    @Test
    void stopsAtTheShortestBoundWhenWorkComesLaterThanABootIsWorth() {
        assertEquals(60, IdleTimeouts.cheapest(Collections.nCopies(50, 7200L), 180, 60, 1800));
    }

    @Test
    void waitsOutABurstsGapsButNotTheLongPausesBetweenBursts() {
        List<Long> gaps = new java.util.ArrayList<>();
        for (int burst = 0; burst < 10; burst++) {
            LongStream.range(0, 9).forEach(i -> gaps.add(300L));
            gaps.add(86_400L);
        }
        assertEquals(300, IdleTimeouts.cheapest(gaps, 180, 60, 1800));
    }

    @Test
    void usesTheFixedIdleTimeoutWhileStillLearning() {
        PoolStateBuilder pool = adaptivePool().freeNode(1, NOW.minus(Duration.ofMinutes(6)))
                .freeNode(2, NOW.minus(Duration.ofMinutes(4)));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(node(1)), plan.drains().stream().map(Plan.DrainRequest::node).toList());
        assertTrue(plan.drains().get(0).reason().contains("idle timeout 5m, the adaptive one still learning (0 of 20"),
                plan.drains().get(0).reason());
    }

    @Test
    void drainsSoonerThanTheFixedTimeoutWhereWorkComesRarely() {
        PoolStateBuilder pool = adaptivePool().freeNode(1, NOW.minus(Duration.ofMinutes(2)));
        pool.state = pool.state.withIdleLearning(learned(7200, 180));
        Plan plan = pool.plan().plan();
        assertEquals(1, plan.drains().size());
        assertTrue(plan.drains().get(0).reason().contains("adaptive idle timeout 1m, the cheapest over the last 50 "
                + "arrivals with boots of 3m"), plan.drains().get(0).reason());
    }

    @Test
    void keepsANodeLongerThanTheFixedTimeoutWhereWorkComesEverySixMinutes() {
        PoolStateBuilder pool = adaptivePool().freeNode(1, NOW.minus(Duration.ofMinutes(5).plusSeconds(30)));
        pool.state = pool.state.withIdleLearning(learned(360, 180));
        assertTrue(pool.plan().plan().drains().isEmpty());
    }

    @Test
    void stopsAtTheShortestBoundWhereWorkComesEveryTenMinutesAsABootCostsLess() {
        assertEquals(60, IdleTimeouts.cheapest(Collections.nCopies(50, 600L), 180, 60, 1800));
    }

    @Test
    void learnsArrivalsAfterTheLastOneSeenAndTheBootsOfItsOwnStarts() {
        PoolStateBuilder pool = adaptivePool().freeNode(1, NOW);
        pool.booting(1, NOW.minusSeconds(200));
        pool.state = pool.state.withIdleLearning(new IdleLearning(NOW.minusSeconds(10), List.of(), List.of()));
        pool.queued("j1", 1).queued("j2", 1).queued("j3", 1);
        IdleLearning after = pool.plan().state().idleLearning();
        assertEquals(List.of(200L), after.bootSeconds());
        // Submitted 1, 2 and 3 s before now; the last seen was 10 s before.
        assertEquals(List.of(7L, 1L, 1L), after.arrivalGaps());
        assertEquals(NOW.minusSeconds(1), after.lastArrivalAt());
    }

    @Test
    void aFixedPoolLearnsNothingSoItsStateIsNotRewrittenForIt() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW);
        pool.booting(1, NOW.minusSeconds(200));
        pool.queued("j1", 1);
        assertEquals(IdleLearning.NONE, pool.plan().state().idleLearning());
    }

    @Test
    void startsItsWarmNodesWithNoJobQueued() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(5);
        pool.extraSettings.put("warm", "2");
        Plan plan = pool.plan().plan();
        assertEquals(2, plan.starts().size());
        assertEquals("the pool keeps 2 warm nodes (started and free beyond what queued jobs need) and has 0 such nodes",
                plan.starts().get(0).reason());
    }

    @Test
    void startsWarmNodesBeyondWhatQueuedJobsNeed() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(5).queued("j1", 16);
        pool.extraSettings.put("warm", "2");
        assertEquals(3, pool.plan().plan().starts().size());
    }

    @Test
    void aNodeBootingForAQueuedJobIsNotWarm() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, io.hpcscale.scaler.cloud.PowerState.STARTING)
                .stopped(5).queued("j1", 16);
        pool.booting(1, NOW.minusSeconds(30));
        pool.extraSettings.put("warm", "1");
        assertEquals(1, pool.plan().plan().starts().size(), "the booting node is the job's; one more is warm");
    }

    @Test
    void withdrawsADrainRatherThanStartAnotherNodeToKeepItsWarmNodes() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofHours(1))).stopped(3)
                .drain(1, NOW.minusSeconds(30));
        pool.extraSettings.put("warm", "1");
        Plan plan = pool.plan().plan();
        assertTrue(plan.starts().isEmpty());
        assertTrue(plan.stops().isEmpty());
        assertEquals(List.of(new Plan.CancelDrain(node(1), "the pool keeps 1 warm node")), plan.cancels());
    }

    @Test
    void anAdaptivePoolsStateIsUnchangedByACycleThatSeesNothingNew() {
        PoolStateBuilder pool = adaptivePool().busyNode(1, 16, "j0");
        pool.queued("j1", 16);
        pool.state = pool.plan().state();
        assertEquals(pool.state.idleLearning(), pool.plan().state().idleLearning());
    }

    @Test
    void refusesWarmNodesOnAPoolThatKeepsAFixedCountOrMoreThanItsMax() {
        ConfigException fixed = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("p",
                new VmShape(4, 1024, 0), 4, Map.of("target", "fixed", "warm", "2")));
        assertTrue(fixed.getMessage().contains("pool.p.target = fixed keeps the count it is given: remove them"),
                fixed.getMessage());
        ConfigException tooMany = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("p",
                new VmShape(4, 1024, 0), 4, Map.of("warm", "5")));
        assertTrue(tooMany.getMessage().contains("pool.p.warm = 5 is more than pool.p.max = 4"),
                tooMany.getMessage());
    }

    @Test
    void drainsNoIdleNodeThatWouldLeaveFewerThanItsWarmNodes() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofHours(2)))
                .freeNode(2, NOW.minus(Duration.ofHours(1))).freeNode(3, NOW.minus(Duration.ofMinutes(30)));
        pool.extraSettings.put("warm", "2");
        Plan plan = pool.plan().plan();
        assertEquals(List.of(node(1)), plan.drains().stream().map(Plan.DrainRequest::node).toList());
        assertTrue(plan.starts().isEmpty());
    }

    @Test
    void refusesAnAdaptiveRangeWhoseMinIsAboveItsMax() {
        ConfigException e = assertThrows(ConfigException.class, () -> PoolConfigs.withDefaults("p",
                new VmShape(4, 1024, 0), 4, Map.of("idlePolicy", "adaptive", "idleTimeoutMin", "1h",
                        "idleTimeoutMax", "10m")));
        assertTrue(e.getMessage().contains("pool.p.idleTimeoutMin = 1h is more than pool.p.idleTimeoutMax = 10m"),
                e.getMessage());
    }

    @Test
    void startsTheWarmNodesOfTheWindowOpenNowNamingItInTheReason() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(5);
        // NOW is Sunday 12:00 UTC.
        pool.extraSettings.putAll(Map.of("warm", "1", "warmSchedule", "Sun 11:00-13:00 = 3"));
        Plan plan = pool.plan().plan();
        assertEquals(3, plan.starts().size());
        assertEquals("the pool keeps 3 warm nodes (warmSchedule Sun 11:00-13:00 = 3) (started and free beyond what "
                + "queued jobs need) and has 0 such nodes", plan.starts().get(0).reason());
    }

    @Test
    void keepsIdleNodesWhileTheirWindowIsOpenAndDrainsThemDownToWarmOnceItCloses() {
        PoolStateBuilder open = threeIdleNodes();
        open.extraSettings.putAll(Map.of("warm", "1", "warmSchedule", "Sun 11:00-13:00 = 3"));
        assertTrue(open.plan().plan().drains().isEmpty(), "NOW, Sunday 12:00, is in the window");

        PoolStateBuilder closed = threeIdleNodes();
        closed.extraSettings.putAll(Map.of("warm", "1", "warmSchedule", "Sun 08:00-11:00 = 3"));
        Plan plan = closed.plan().plan();
        assertEquals(List.of(node(1), node(2)), plan.drains().stream().map(Plan.DrainRequest::node).toList());
        assertTrue(plan.starts().isEmpty());
    }

    private static PoolStateBuilder threeIdleNodes() {
        return new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofHours(2)))
                .freeNode(2, NOW.minus(Duration.ofHours(1))).freeNode(3, NOW.minus(Duration.ofMinutes(30)));
    }
}
