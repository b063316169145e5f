package io.hpcscale.scaler.plan;

import static io.hpcscale.scaler.plan.PoolStateBuilder.NOW;
import static io.hpcscale.scaler.plan.PoolStateBuilder.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** An administrator's decision placed among the scaler's own: what it is shown, and what of its asks is done. */
class CustomDecisionTest {

    private record Asking(String name, Function<PoolFacts, List<CustomDecision.Request>> ask)
            implements CustomDecision {
        @Override
        public List<Request> decide(PoolFacts pool) {
            return ask.apply(pool);
        }
    }

    private static List<String> drained(Plan plan) {
        return plan.drains().stream().map(Plan.DrainRequest::node).toList();
    }

    private static List<String> notes(Plan plan) {
        return plan.notes().stream().filter(n -> n.kind() == EventKind.CUSTOM_DECISION).map(Plan.Note::message)
                .toList();
    }

    @Test
    void aGrowAfterScaleUpStartsOtherInstancesWithinTheStepLeft() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(5);
        pool.queued("j1", 8);
        pool.maxStart = 3;
        pool.decisions = "scaleUp, warm, drainCompletion, idleDrain";
        Plan plan = pool.plan(new Asking("warm", facts -> List.of(new CustomDecision.Grow(4, "two spare")))).plan();
        assertEquals(List.of("p_1", "p_2", "p_3"), plan.starts().stream().map(s -> s.instance().id()).toList(),
                "one for the job, two of the four asked: the step is 3");
        assertTrue(plan.starts().get(1).reason().startsWith("warm: two spare"));
    }

    @Test
    void aGrowCountsAgainstTheMax() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(4).freeNode(9, NOW.minusSeconds(10));
        pool.max = 3;
        pool.decisions = "warm, scaleUp, drainCompletion, idleDrain";
        Plan plan = pool.plan(new Asking("warm", facts -> List.of(new CustomDecision.Grow(5, "spare")))).plan();
        assertEquals(2, plan.starts().size(), "one running, max 3");
    }

    @Test
    void itIsShownEveryInstanceAndWhatWasPlannedBeforeIt() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(2))).stopped(2);
        pool.busyNode(4, 16, "running");
        pool.queued("j1", 8);
        pool.queued("j2", 16);
        pool.decisions = "scaleUp, look, drainCompletion, idleDrain";
        List<PoolFacts> seen = new ArrayList<>();
        pool.plan(new Asking("look", facts -> {
            seen.add(facts);
            return List.of();
        }));
        PoolFacts facts = seen.get(0);
        assertEquals(1, facts.startsPlanned(), "j2 needs a node of its own; j1 fits node 1");
        assertEquals(2, facts.queuedJobs().size());
        PoolFacts.Node free = facts.nodes().stream().filter(n -> n.name().equals(node(1))).findFirst().orElseThrow();
        assertEquals(new PoolFacts.Node(node(1), "p_1", PoolFacts.State.RUNNING, true,
                java.util.Optional.of(Duration.ofMinutes(2)), false, true), free);
        assertEquals(List.of(PoolFacts.State.RUNNING, PoolFacts.State.RUNNING, PoolFacts.State.STOPPED,
                PoolFacts.State.STOPPED), facts.nodes().stream().map(PoolFacts.Node::state).toList());
    }

    @Test
    void aDrainOfAnIdleNodeIsAskedAndIdleDrainCountsIt() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(1)))
                .freeNode(2, NOW.minus(Duration.ofMinutes(30))).freeNode(3, NOW.minus(Duration.ofMinutes(40)));
        pool.min = 1;
        pool.decisions = "scaleUp, drainCompletion, early, idleDrain";
        Plan plan = pool.plan(new Asking("early", facts -> List.of(new CustomDecision.Drain(node(1), "night"))))
                .plan();
        assertEquals(List.of(node(1), node(3)), drained(plan), "min 1: idle drain takes one more, not two");
        assertTrue(plan.drains().get(0).reason().equals("early: night"));
        assertTrue(plan.stops().isEmpty(), "a drain is never a stop");
    }

    @Test
    void aDrainOurRulesRefuseIsAnEventAndNothingElse() {
        PoolStateBuilder pool = new PoolStateBuilder().busyNode(1, 16, "running")
                .freeNode(2, NOW.minus(Duration.ofMinutes(1))).instance(3, PowerState.STOPPED);
        pool.queued("waits", 8);
        pool.decisions = "scaleUp, drainCompletion, idleDrain, greedy";
        Plan plan = pool.plan(new Asking("greedy", facts -> List.of(new CustomDecision.Drain(node(1), "a"),
                new CustomDecision.Drain(node(2), "b"), new CustomDecision.Drain(node(3), "c"),
                new CustomDecision.Drain("elsewhere", "d"), new CustomDecision.Grow(0, "e")))).plan();
        assertEquals(List.of(), drained(plan));
        List<String> notes = notes(plan);
        assertEquals(5, notes.size(), notes.toString());
        assertTrue(notes.get(0).endsWith("refused: it is not in service and idle"), notes.get(0));
        assertTrue(notes.get(1).endsWith("refused: queued jobs will run on it"), notes.get(1));
        assertTrue(notes.get(2).endsWith("refused: no running instance of the pool is node " + node(3)));
        assertTrue(notes.get(3).endsWith("refused: no running instance of the pool is node elsewhere"));
        assertTrue(notes.get(4).endsWith("refused: a count of nodes must be positive, not 0"));
    }

    @Test
    void aDrainBelowTheMinIsRefused() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(1)));
        pool.min = 1;
        pool.decisions = "scaleUp, drainCompletion, idleDrain, greedy";
        Plan plan = pool.plan(new Asking("greedy", facts -> List.of(new CustomDecision.Drain(node(1), "a")))).plan();
        assertEquals(List.of(), drained(plan));
        assertTrue(notes(plan).get(0).contains("the pool is at its min of 1"), notes(plan).toString());
    }

    @Test
    void aDecisionThatThrowsIsAnEventAndTheScalersOwnDecisionsStillRun() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(1).freeNode(2, NOW.minus(Duration.ofMinutes(30)));
        pool.queued("j1", 16);
        pool.queued("j2", 16);
        pool.decisions = "broken, scaleUp, drainCompletion, idleDrain";
        Plan plan = pool.plan(new Asking("broken", facts -> {
            throw new IllegalStateException("bug in site policy");
        })).plan();
        assertEquals(1, plan.starts().size());
        assertTrue(notes(plan).get(0).startsWith("decision broken failed (java.lang.IllegalStateException: bug in "
                + "site policy)"), notes(plan).toString());
    }

    @Test
    void itIsNotAskedWhenTheAgentsReadIsStale() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(2);
        pool.agentReadAt = NOW.minus(Duration.ofMinutes(30));
        pool.decisions = "scaleUp, warm, drainCompletion, idleDrain";
        Plan plan = pool.plan(new Asking("warm", facts -> List.of(new CustomDecision.Grow(2, "spare")))).plan();
        assertTrue(plan.starts().isEmpty(), "unknown is not zero: nothing beyond min without a fresh read");
    }

    @Test
    void twoDecisionsOfOneNameOrOneNamedLikeOursAreRefused() {
        ConfigException twice = assertThrows(ConfigException.class, () -> CustomDecisions.byName(List.of(
                new Asking("warm", f -> List.of()), new Asking("warm", f -> List.of()))));
        assertTrue(twice.getMessage().startsWith("two decisions are named warm"), twice.getMessage());
        ConfigException ours = assertThrows(ConfigException.class, () -> CustomDecisions.byName(List.of(
                new Asking(PoolConfig.IDLE_DRAIN, f -> List.of()))));
        assertTrue(ours.getMessage().contains("not one of the scaler's own"), ours.getMessage());
    }

    @Test
    void aPoolNamingADecisionNoJarProvidesIsRefusedWithTheInstalledOnes() {
        PoolStateBuilder pool = new PoolStateBuilder();
        pool.decisions = "scaleUp, warn, drainCompletion, idleDrain";
        ConfigException e = assertThrows(ConfigException.class, () -> CustomDecisions.check(
                Map.of("p", pool.config()), Map.of("warm", new Asking("warm", f -> List.of()))));
        assertEquals(List.of("pool.p.decisions names warn, which no jar of scaler.decisionJars or the class "
                + "path provides (installed: warm): name its jar in scaler.decisionJars, or correct the name"), e.problems());
    }

    @Test
    void thePoolMustKeepTheScalersOwnDecisionsInTheirOrder() {
        PoolStateBuilder pool = new PoolStateBuilder();
        pool.decisions = "scaleUp, idleDrain, drainCompletion";
        ConfigException e = assertThrows(ConfigException.class, pool::config);
        assertTrue(e.getMessage().contains("must name scaleUp, drainCompletion, idleDrain once each and in this "
                + "order"), e.getMessage());
        pool.decisions = "scaleUp, warm, drainCompletion, warm, idleDrain";
        assertThrows(ConfigException.class, pool::config);
        pool.decisions = "scaleUp, warm, drainCompletion, idleDrain";
        assertNotNull(pool.config());
    }

    @Test
    void aNodeKeptByOneDecisionIsDrainedNeitherByALaterOneNorByIdleDrain() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(30)));
        pool.decisions = "scaleUp, drainCompletion, keeper, drainer, idleDrain";
        Plan plan = pool.plan(new Asking("keeper", facts -> List.of(new CustomDecision.Keep(node(1), "reserved"))),
                new Asking("drainer", facts -> List.of(new CustomDecision.Drain(node(1), "night")))).plan();
        assertEquals(List.of(), drained(plan));
        assertTrue(notes(plan).get(0).endsWith("refused: an earlier decision keeps it this cycle"), notes(plan)
                .toString());
    }

    @Test
    void aGrowCutShortByTheMaxSaysSo() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(4);
        pool.max = 2;
        pool.decisions = "scaleUp, warm, drainCompletion, idleDrain";
        Plan plan = pool.plan(new Asking("warm", facts -> List.of(new CustomDecision.Grow(3, "spare")))).plan();
        assertEquals(2, plan.starts().size());
        assertTrue(notes(plan).get(0).contains("refused: 2 nodes of them planned: the rest would pass the pool's max "
                + "of 2"), notes(plan).toString());
    }

    @Test
    void aDecisionNamedButNotInstalledIsSkippedWithAnEventAndOursStillRun() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(1);
        pool.queued("j1", 8);
        pool.decisions = "scaleUp, ghost, drainCompletion, idleDrain";
        Plan plan = pool.plan().plan();
        assertEquals(1, plan.starts().size());
        assertEquals(List.of("decision ghost is named in the pool's decisions but not installed: skipped"),
                notes(plan));
    }
}
