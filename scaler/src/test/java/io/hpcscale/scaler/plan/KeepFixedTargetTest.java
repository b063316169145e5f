package io.hpcscale.scaler.plan;

import static io.hpcscale.scaler.plan.PoolStateBuilder.NOW;
import static io.hpcscale.scaler.plan.PoolStateBuilder.id;
import static io.hpcscale.scaler.plan.PoolStateBuilder.node;
import static io.hpcscale.scaler.plan.PoolStateBuilder.vm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.StopKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeepFixedTargetTest {

    private static List<String> started(Plan plan) {
        return plan.starts().stream().map(s -> s.instance().id()).toList();
    }

    private static List<String> drained(Plan plan) {
        return plan.drains().stream().map(Plan.DrainRequest::node).toList();
    }

    private static boolean noted(Plan plan, EventKind kind) {
        return plan.notes().stream().anyMatch(n -> n.kind() == kind);
    }

    /** A pool no agent reports: the render farm's case. */
    private static PoolStateBuilder agentless(int target, String shrink) {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(target, shrink);
        pool.agentReadAt = null;
        return pool;
    }

    @Test
    void startsStoppedInstancesUpToTheTargetWithoutAnyJob() {
        Plan plan = agentless(3, "lazy").stopped(5).plan().plan();
        assertEquals(List.of(id(1), id(2), id(3)), started(plan));
        assertTrue(plan.starts().get(0).reason().contains("target is 3"), plan.starts().get(0).reason());
    }

    @Test
    void createsWhatStoppedInstancesCannotCover() {
        PoolStateBuilder pool = agentless(4, "lazy").stopped(1);
        pool.canCreate = true;
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(1)), started(plan));
        assertEquals(3, plan.create().count());
    }

    @Test
    void anUnknownTargetStartsAndStopsNothing() {
        PoolStateBuilder pool = agentless(0, "idle-first").stopped(3);
        pool.target = TargetReading.unknown("tag TOTAL_NODES of resource group rg", "ARM answered 503");
        pool.instance(9, PowerState.STARTING);
        Plan plan = pool.plan().plan();
        assertTrue(plan.isEmpty(), "unknown is not zero");
        assertTrue(noted(plan, EventKind.TARGET_UNKNOWN));
    }

    @Test
    void aTargetAboveMaxKeepsMaxAndSaysSo() {
        PoolStateBuilder pool = agentless(50, "lazy").stopped(12);
        pool.max = 10;
        Plan plan = pool.plan().plan();
        assertEquals(10, plan.starts().size());
        assertTrue(noted(plan, EventKind.AT_MAX));
    }

    @Test
    void lazyShrinkWithoutAnAgentStopsNothing() {
        PoolStateBuilder pool = agentless(1, "lazy").instance(1, PowerState.RUNNING).instance(2, PowerState.RUNNING)
                .instance(3, PowerState.STARTING);
        Plan plan = pool.plan().plan();
        assertTrue(plan.stops().isEmpty());
        assertTrue(noted(plan, EventKind.ABOVE_TARGET));
    }

    @Test
    void idleFirstShrinkWithoutAnAgentStopsOnlyBootingInstancesNewestFirst() {
        PoolStateBuilder pool = agentless(1, "idle-first").instance(1, PowerState.RUNNING)
                .instance(2, PowerState.STARTING).instance(3, PowerState.STARTING);
        pool.booting(2, NOW.minusSeconds(300)).booting(3, NOW.minusSeconds(60));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(3), id(2)), plan.stops().stream().map(s -> s.instance().id()).toList());
        assertTrue(plan.stops().stream().allMatch(s -> s.kind() == StopKind.SURPLUS));

        PoolStateBuilder allRunning = agentless(0, "idle-first").instance(1, PowerState.RUNNING);
        Plan none = allRunning.plan().plan();
        assertTrue(none.stops().isEmpty(), "a running instance may run a job no one can see");
        assertTrue(noted(none, EventKind.ABOVE_TARGET));
    }

    @Test
    void withAnAgentTheSurplusIsDrainedIdleFirstThenBusy() {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(1, "lazy")
                .busyNode(1, 16, "j1").freeNode(2, NOW.minusSeconds(30)).freeNode(3, NOW.minusSeconds(3600));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(node(3), node(2)), drained(plan), "longest idle first, and no idle timeout to wait");
        assertTrue(plan.stops().isEmpty(), "nothing is stopped before the agent confirms the drain");

        PoolStateBuilder lower = new PoolStateBuilder().fixed(0, "lazy").busyNode(1, 16, "j1")
                .freeNode(2, NOW.minusSeconds(30));
        assertEquals(List.of(node(2), node(1)), drained(lower.plan().plan()), "a busy node drains as its jobs end");
    }

    @Test
    void aDrainedBusyNodeIsNotStoppedUntilItsJobEnds() {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(0, "lazy").busyNode(1, 16, "j1")
                .drain(1, NOW.minusSeconds(300));
        pool.replaceVm(1, vm(1, NodeJobStatus.Busy, 16, List.of("j1"), true, false, NOW, NOW.minusSeconds(300)));
        Plan plan = pool.plan().plan();
        assertTrue(plan.stops().isEmpty());
        assertTrue(plan.drains().isEmpty(), "already draining counts against the surplus");
    }

    @Test
    void raisingTheTargetWithdrawsDrainsBeforeStartingInstances() {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(2, "lazy").freeNode(1, NOW.minusSeconds(60))
                .freeNode(2, NOW.minusSeconds(60)).drain(2, NOW.minusSeconds(30)).stopped(1);
        Plan plan = pool.plan().plan();
        assertEquals(List.of(node(2)), plan.cancels().stream().map(Plan.CancelDrain::node).toList());
        assertTrue(plan.starts().isEmpty());
        assertTrue(plan.stops().isEmpty(), "a withdrawn drain is never stopped in the same cycle");
    }

    @Test
    void evictedInstancesAreStartedAgainToTheTarget() {
        PoolStateBuilder pool = agentless(4, "lazy");
        pool.spot = true;
        for (int i = 1; i <= 4; i++) {
            pool.instance(i, i <= 2 ? PowerState.STOPPED : PowerState.RUNNING);
            pool.state = pool.state.withInstance(id(i), InstanceRecord.seenActive(NOW.minus(Duration.ofHours(1)),
                    false));
        }
        PlanResult result = pool.plan();
        assertEquals(2, result.state().evictions());
        assertEquals(List.of(id(1), id(2)), started(result.plan()), "half the fleet back in one cycle");
        assertNull(result.state().backoffUntil(), "one storm is not a reason to back off");
    }

    @Test
    void evictionsInRepeatedCyclesPutThePoolInBackoff() {
        PoolStateBuilder pool = agentless(2, "lazy");
        pool.spot = true;
        pool.evictionRounds = 2;
        pool.instance(1, PowerState.RUNNING).instance(2, PowerState.RUNNING);
        pool.state = pool.state.withInstance(id(1), InstanceRecord.seenActive(NOW.minusSeconds(3600), false))
                .withInstance(id(2), InstanceRecord.seenActive(NOW.minusSeconds(3600), false))
                .withEvictionRound(NOW.minus(Duration.ofMinutes(10)), 3);
        pool.instances.set(0, new Instance(id(1), node(1), PowerState.STOPPED));

        PlanResult result = pool.plan();

        assertTrue(result.state().inBackoff(NOW), "a second round within the window");
        assertTrue(noted(result.plan(), EventKind.EVICTION_BACKOFF));
        assertTrue(result.plan().starts().isEmpty());
        assertFalse(result.state().evictionRounds().isEmpty());
    }

    @Test
    void roundsOutsideTheWindowDoNotCount() {
        PoolStateBuilder pool = agentless(2, "lazy");
        pool.spot = true;
        pool.evictionRounds = 2;
        pool.instance(1, PowerState.STOPPED).instance(2, PowerState.RUNNING);
        pool.state = pool.state.withInstance(id(1), InstanceRecord.seenActive(NOW.minusSeconds(3600), false))
                .withEvictionRound(NOW.minus(Duration.ofHours(2)), 3);
        PlanResult result = pool.plan();
        assertFalse(result.state().inBackoff(NOW));
        assertEquals(List.of(id(1)), started(result.plan()));
    }

    @Test
    void withoutAnAgentABootEndsWhenTheCloudListsItRunning() {
        PoolStateBuilder pool = agentless(1, "idle-first").instance(1, PowerState.RUNNING);
        pool.booting(1, NOW.minus(Duration.ofHours(3)));
        PlanResult result = pool.plan();
        assertTrue(result.plan().stops().isEmpty(), "no boot timeout where no node can ever report");
        assertFalse(result.state().instance(id(1)).orElseThrow().booting());
    }

    @Test
    void anUnknownTargetStopsNoDrainedNodeEither() {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(0, "lazy").freeNode(1, NOW.minusSeconds(600))
                .drain(1, NOW.minusSeconds(300));
        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), true, false, NOW.minusSeconds(600),
                NOW.minusSeconds(300)));
        pool.target = TargetReading.unknown("tag", "ARM answered 503");
        Plan plan = pool.plan().plan();
        assertTrue(plan.stops().isEmpty(), "the count may have been raised: a drained node is not stopped on it");
    }

    @Test
    void busyNodesAreNotDrainedForASurplusThatBootingInstancesWillMakeUp() {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(2, "lazy").busyNode(1, 16, "j1").busyNode(2, 16, "j2")
                .instance(3, PowerState.STARTING).instance(4, PowerState.STARTING);
        Plan plan = pool.plan().plan();
        assertTrue(plan.drains().isEmpty(), "the two booting instances are the surplus, drained once idle");
    }

    @Test
    void aPoolWithNodeDocumentsButNoAgentHeartbeatIsStaleNotAgentless() {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(0, "idle-first").freeNode(1, NOW.minusSeconds(600))
                .instance(2, PowerState.STARTING);
        pool.agentReadAt = null;
        pool.booting(2, NOW.minusSeconds(60));
        Plan plan = pool.plan().plan();
        assertTrue(plan.stops().isEmpty() && plan.drains().isEmpty(), "its nodes' jobs are unknown, not absent");
        assertTrue(plan.notes().stream().anyMatch(n -> n.kind() == EventKind.STALE));
    }
}
