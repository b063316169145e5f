package io.hpcscale.scaler.plan;

import static io.hpcscale.scaler.plan.PoolStateBuilder.NOW;
import static io.hpcscale.scaler.plan.PoolStateBuilder.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.RemovalRecord;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.removal.Delivery;
import io.hpcscale.scaler.removal.RemovalMessage;
import io.hpcscale.scaler.removal.RemovalRequest;
import io.hpcscale.scaler.removal.VmResourceId;
import java.util.List;
import org.junit.jupiter.api.Test;

class RemovalPlanningTest {

    /** A node of pool "p" (instance ids p_1, p_2, ...: Uniform scale set "p") asking to be removed. */
    private static RemovalMessage.Request asks(int i, String messageId) {
        VmResourceId vm = VmResourceId.parse("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/"
                + "virtualMachineScaleSets/p/virtualMachines/" + i);
        return new RemovalMessage.Request(new Delivery(messageId, "receipt", 1, NOW), "{}",
                new RemovalRequest(vm, "p", null, NOW.minusSeconds(10), "hpcscale-delete-me on node" + i, "done"));
    }

    private static PoolStateBuilder fixedAgentless(int target) {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(target, "lazy");
        pool.agentReadAt = null;
        return pool;
    }

    @Test
    void deletesTheInstanceAndLowersAFixedCountByOne() {
        PoolStateBuilder pool = fixedAgentless(3).instance(1, PowerState.RUNNING).instance(2, PowerState.RUNNING)
                .instance(3, PowerState.RUNNING);
        pool.removals.add(asks(2, "m1"));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(2)), plan.removals().stream().map(r -> r.instance().id()).toList());
        assertEquals(2, plan.removals().get(0).targetAfter());
        assertTrue(plan.starts().isEmpty() && plan.create() == null, "the removed instance is not replaced");
    }

    @Test
    void twoRemovalsInOneCycleLowerTheCountByTwo() {
        PoolStateBuilder pool = fixedAgentless(3).instance(1, PowerState.RUNNING).instance(2, PowerState.RUNNING)
                .instance(3, PowerState.RUNNING);
        pool.removals.addAll(List.of(asks(1, "m1"), asks(3, "m3")));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(2, 1), plan.removals().stream().map(Plan.Removal::targetAfter).toList());
    }

    @Test
    void aSecondDeliveryOfADoneRemovalOnlyAnswersTheMessage() {
        PoolStateBuilder pool = fixedAgentless(2).instance(1, PowerState.RUNNING).instance(3, PowerState.RUNNING);
        pool.state = pool.state.withRemoval(id(2), new RemovalRecord(NOW.minusSeconds(300), 2, true), NOW);
        pool.removals.add(asks(2, "m1-again"));
        Plan plan = pool.plan().plan();
        assertTrue(plan.removals().isEmpty());
        assertEquals(EventKind.REMOVAL_DUPLICATE, plan.removalAnswers().get(0).kind());
        assertFalse(plan.removalAnswers().get(0).setAside(), "deleted, not set aside");
    }

    @Test
    void aRequestForAnInstanceThePoolDoesNotHaveIsSetAside() {
        PoolStateBuilder pool = fixedAgentless(1).instance(1, PowerState.RUNNING);
        pool.removals.add(asks(9, "m9"));
        Plan plan = pool.plan().plan();
        assertTrue(plan.removals().isEmpty());
        assertTrue(plan.removalAnswers().get(0).setAside());
    }

    @Test
    void aNodeRunningAJobIsNotRemovedAndItsMessageComesBack() {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(2, "lazy").busyNode(1, 16, "frame-7")
                .freeNode(2, NOW.minusSeconds(60));
        pool.removals.add(asks(1, "m1"));
        Plan plan = pool.plan().plan();
        assertTrue(plan.removals().isEmpty());
        assertTrue(plan.removalAnswers().isEmpty(), "neither deleted nor set aside: it is delivered again");
        assertTrue(plan.notes().stream().anyMatch(n -> n.kind() == EventKind.REMOVAL_WAITS
                && n.message().contains("frame-7")));
    }

    @Test
    void aCountThatCannotBeReadMakesTheRemovalWait() {
        PoolStateBuilder pool = fixedAgentless(2).instance(1, PowerState.RUNNING);
        pool.target = TargetReading.unknown("tag", "ARM answered 503");
        pool.removals.add(asks(1, "m1"));
        Plan plan = pool.plan().plan();
        assertTrue(plan.removals().isEmpty());
        assertTrue(plan.removalAnswers().isEmpty());
    }

    @Test
    void aRemovalWhoseCountIsNotWrittenYetHoldsTheCountDown() {
        PoolStateBuilder pool = fixedAgentless(3).instance(1, PowerState.RUNNING).instance(3, PowerState.RUNNING)
                .stopped(1);
        pool.state = pool.state.withRemoval(id(2), new RemovalRecord(NOW.minusSeconds(30), 2, false), NOW);
        Plan plan = pool.plan().plan();
        assertTrue(plan.starts().isEmpty(), "the count read (3) is one the removal has not lowered yet");
    }

    @Test
    void aDemandPoolDeletesTheInstanceWithNoCountToLower() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minusSeconds(30));
        pool.removals.add(asks(1, "m1"));
        Plan plan = pool.plan().plan();
        assertEquals(1, plan.removals().size());
        assertNull(plan.removals().get(0).targetAfter());
    }
}
