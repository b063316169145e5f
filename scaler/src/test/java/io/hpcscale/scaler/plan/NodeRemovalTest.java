package io.hpcscale.scaler.plan;

import static io.hpcscale.scaler.plan.PoolStateBuilder.NOW;
import static io.hpcscale.scaler.plan.PoolStateBuilder.id;
import static io.hpcscale.scaler.plan.PoolStateBuilder.node;
import static io.hpcscale.scaler.plan.PoolStateBuilder.vm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.RemovalRecord;
import io.hpcscale.scaler.removal.Delivery;
import io.hpcscale.scaler.removal.RemovalMessage;
import io.hpcscale.scaler.removal.RemovalRequest;
import io.hpcscale.scaler.removal.VmResourceId;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeRemovalTest {

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

    private static List<String> removed(Plan plan) {
        return plan.removals().stream().map(r -> r.instance().id()).toList();
    }

    @Test
    void aRequestIsTakenOnAndItsInstanceCountsForNothingFromThen() {
        PoolStateBuilder pool = fixedAgentless(3).instance(1, PowerState.RUNNING).instance(2, PowerState.RUNNING)
                .instance(3, PowerState.RUNNING).stopped(1);
        pool.removals.add(asks(2, "m1"));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(2)), plan.acceptances().stream().map(Plan.Acceptance::instance).toList());
        assertTrue(plan.starts().isEmpty() && plan.create() == null, "the count is one lower: nothing replaces it");
    }

    @Test
    void aRemovalTakenOnIsDeletedAtOnceWhereNoAgentReportsTheNode() {
        PoolStateBuilder pool = fixedAgentless(2).instance(1, PowerState.RUNNING).instance(2, PowerState.RUNNING)
                .instance(3, PowerState.RUNNING);
        pool.state = pool.state.withRemoval(id(2), RemovalRecord.accepted(NOW.minusSeconds(60), "node2", true)
                .lowering(3, 2).asLowered());
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(2)), removed(plan));
        assertTrue(plan.drains().isEmpty() && plan.starts().isEmpty() && plan.stops().isEmpty());
    }

    @Test
    void aReportedNodeIsDrainedFirstAndDeletedOnlyOnceTheHandshakeIsComplete() {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(1, "lazy").freeNode(1, NOW.minusSeconds(60))
                .freeNode(2, NOW.minusSeconds(60));
        pool.state = pool.state.withRemoval(id(1), RemovalRecord.accepted(NOW.minusSeconds(60), "node1", true)
                .lowering(2, 1).asLowered());
        Plan first = pool.plan().plan();
        assertTrue(first.removals().isEmpty(), "a Free flag alone is not enough: a job may have landed since");
        assertEquals(List.of(node(1)), first.drains().stream().map(Plan.DrainRequest::node).toList());

        pool.drain(1, NOW.minusSeconds(30));
        pool.replaceVm(1, vm(1, NodeJobStatus.Busy, 16, List.of("frame-9"), true, false, NOW, NOW.minusSeconds(30)));
        Plan busy = pool.plan().plan();
        assertTrue(busy.removals().isEmpty());
        assertTrue(busy.stops().isEmpty(), "nor stopped as an ordinary drained node");
        assertTrue(busy.notes().stream().anyMatch(n -> n.kind() == EventKind.REMOVAL_WAITS
                && n.message().contains("frame-9")));

        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), true, false, NOW, NOW.minusSeconds(30)));
        Plan drained = pool.plan().plan();
        assertEquals(List.of(id(1)), removed(drained));
        assertTrue(drained.stops().isEmpty(), "deleted once, not also deallocated as drained");
    }

    @Test
    void aSecondDeliveryOfARequestTakenOnOnlyAnswersTheMessage() {
        PoolStateBuilder pool = fixedAgentless(2).instance(1, PowerState.RUNNING).instance(3, PowerState.RUNNING);
        pool.state = pool.state.withRemoval(id(2), RemovalRecord.accepted(NOW.minusSeconds(300), "node2", true)
                .asLowered());
        pool.removals.add(asks(2, "m1-again"));
        Plan plan = pool.plan().plan();
        assertTrue(plan.acceptances().isEmpty());
        assertEquals(EventKind.REMOVAL_DUPLICATE, plan.removalAnswers().get(0).kind());
        assertFalse(plan.removalAnswers().get(0).setAside(), "deleted, not set aside");
    }

    @Test
    void aRequestForAnInstanceThePoolDoesNotHaveIsSetAside() {
        PoolStateBuilder pool = fixedAgentless(1).instance(1, PowerState.RUNNING);
        pool.removals.add(asks(9, "m9"));
        Plan plan = pool.plan().plan();
        assertTrue(plan.acceptances().isEmpty());
        assertTrue(plan.removalAnswers().get(0).setAside());
    }

    @Test
    void aStaleAgentMakesATakenOnRemovalWait() {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(2, "lazy").freeNode(1, NOW.minusSeconds(60))
                .freeNode(2, NOW.minusSeconds(60));
        pool.agentReadAt = NOW.minusSeconds(3600);
        pool.state = pool.state.withRemoval(id(1), RemovalRecord.accepted(NOW.minusSeconds(60), "node1", true));
        Plan plan = pool.plan().plan();
        assertTrue(plan.removals().isEmpty() && plan.drains().isEmpty());
        assertTrue(plan.notes().stream().anyMatch(n -> n.kind() == EventKind.REMOVAL_WAITS));
    }

    @Test
    void aCountNotYetLoweredForARemovalIsHeldDownButACountSetSinceStands() {
        PoolStateBuilder pool = fixedAgentless(3).instance(1, PowerState.RUNNING).instance(3, PowerState.RUNNING)
                .instance(4, PowerState.STOPPED);
        pool.state = pool.state.withRemoval(id(2), RemovalRecord.accepted(NOW.minusSeconds(30), "node2", true));
        assertTrue(pool.plan().plan().starts().isEmpty(), "the count read (3) does not reflect the removal yet");

        pool.state = pool.state.withRemoval(id(2), RemovalRecord.accepted(NOW.minusSeconds(30), "node2", true)
                .lowering(3, 2));
        pool.target = TargetReading.of(5, "tag");
        assertEquals(List.of(id(4)), pool.plan().plan().starts().stream().map(st -> st.instance().id()).toList(),
                "5 was set since the removal read 3: it stands");
    }

    @Test
    void aLeavingInstanceIsNeverStartedAgainForDemand() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(2);
        pool.queued("job", 16);
        pool.state = pool.state.withRemoval(id(1), RemovalRecord.accepted(NOW.minusSeconds(30), "node1", false));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(2)), plan.starts().stream().map(s -> s.instance().id()).toList());
        assertEquals(List.of(id(1)), removed(plan), "a stopped instance is deleted at once");
    }

    @Test
    void aStoppedInstanceWhoseNodeTheSchedulerShowsDownIsDeletedWithoutADrain() {
        PoolStateBuilder pool = new PoolStateBuilder().fixed(1, "lazy").freeNode(2, NOW.minusSeconds(60))
                .instance(1, PowerState.STOPPED);
        pool.vms.add(vm(1, NodeJobStatus.Free, 0, List.of(), false, true, NOW.minusSeconds(600), null));
        pool.state = pool.state.withRemoval(id(1), RemovalRecord.accepted(NOW.minusSeconds(60), "render-manager",
                true).lowering(2, 1).asLowered());
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(1)), removed(plan));
        assertTrue(StopGuard.refusal(io.hpcscale.scaler.documents.StopKind.REMOVED, pool.vms.get(1), null).isEmpty(),
                "the re-check before the call agrees");
    }
}
