package io.hpcscale.scaler.plan;

import static io.hpcscale.scaler.plan.PoolStateBuilder.NOW;
import static io.hpcscale.scaler.plan.PoolStateBuilder.id;
import static io.hpcscale.scaler.plan.PoolStateBuilder.node;
import static io.hpcscale.scaler.plan.PoolStateBuilder.vm;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceFailure;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.documents.StopKind;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlannerTest {

    private static List<String> started(Plan plan) {
        return plan.starts().stream().map(s -> s.instance().id()).toList();
    }

    private static List<String> stopped(Plan plan) {
        return plan.stops().stream().map(s -> s.instance().id()).toList();
    }

    private static List<String> drained(Plan plan) {
        return plan.drains().stream().map(d -> d.instance().nodeName()).toList();
    }

    private static boolean noted(Plan plan, EventKind kind) {
        return plan.notes().stream().anyMatch(n -> n.kind() == kind);
    }

    private static List<String> cancelled(Plan plan) {
        return plan.cancels().stream().map(Plan.CancelDrain::node).toList();
    }

    private static List<String> notes(Plan plan, EventKind kind) {
        return plan.notes().stream().filter(n -> n.kind() == kind).map(Plan.Note::message).toList();
    }

    private static List<EventKind> found(PlanResult result) {
        return result.plan().found().stream().map(Plan.Found::kind).toList();
    }

    private static List<String> settled(PlanResult result) {
        return result.plan().found().stream().filter(f -> f.kind() == EventKind.SETTLED)
                .map(st -> st.instance() + ": " + st.message()).toList();
    }

    /** Node i, up, in service and running no job, with this room and use as the agent reported them. */
    private static VmDocument sized(int i, int cpus, int cpusUsed, long memoryMb, long memoryMbUsed, int gpus,
            int gpusUsed) {
        return new VmDocument(node(i), "p", node(i), NodeJobStatus.Free, "free", false, false, false, false, cpus, cpusUsed,
                memoryMb, memoryMbUsed, gpus, gpusUsed, List.of(), NOW.minusSeconds(60), NOW.minusSeconds(60), null,
                "agent-h-pbs");
    }

    // ---- scale-up ----------------------------------------------------------------------------------------------

    @Test
    void scalesUpFromZero() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(10);
        pool.queued("1", 16).queued("2", 16).queued("3", 16);
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(1), id(2), id(3)), started(plan));
        assertEquals("3 queued jobs need 3 more nodes", plan.starts().get(0).reason());
        assertEquals(3, plan.demand().newNodes());
    }

    @Test
    void hibernatedInstancesAreStartedBeforeOthersForTheyResumeSooner() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(3).hibernated(4).stopped(1).hibernated(6);
        pool.queued("1", 16).queued("2", 16).queued("3", 16);
        assertEquals(List.of(id(4), id(6), id(1)), started(pool.plan().plan()));
    }

    @Test
    void aHibernatedInstanceWhoseResumeFailedIsStartedAfterEveryOther() {
        PoolStateBuilder pool = new PoolStateBuilder();
        pool.instances.add(new Instance(id(1), node(1), PowerState.STOPPED, new InstanceFailure(
                "OverconstrainedResumeFromHibernatedStateAllocationRequest", "Allocation failed.", false), true));
        pool.stopped(1).hibernated(3);
        pool.queued("1", 16).queued("2", 16).queued("3", 16);
        assertEquals(List.of(id(3), id(2), id(1)), started(pool.plan().plan()));
    }

    @Test
    void smallJobsShareANode() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(10);
        pool.queued("1", 4).queued("2", 4).queued("3", 4).queued("4", 4).queued("5", 2);
        assertEquals(2, started(pool.plan().plan()).size(), "16 + 2 CPUs on 16-CPU nodes");
    }

    @Test
    void multiChunkScatterJobFillsAPartlyUsedNodeAndNeedsTheRest() {
        PoolStateBuilder pool = new PoolStateBuilder().busyNode(1, 8, "old").stopped(5);
        pool.job("mixed", JobState.Queued, Placement.scatter, false, new Chunk(1, 8, 0, 0), new Chunk(2, 16, 0, 0));
        Plan plan = pool.plan().plan();
        assertEquals(2, plan.demand().newNodes(), "the 8-CPU chunk fits the busy node's free half");
        assertTrue(plan.demand().nodesInUse().contains(node(1)));
    }

    @Test
    void anExclusiveJobDoesNotShareAPartlyUsedNode() {
        PoolStateBuilder pool = new PoolStateBuilder().busyNode(1, 4, "old").stopped(5);
        pool.job("excl", JobState.Queued, Placement.free, true, new Chunk(1, 4, 0, 0));
        pool.queued("small", 4);
        Plan plan = pool.plan().plan();
        assertEquals(1, plan.demand().newNodes(), "the exclusive job gets a node of its own");
        assertTrue(plan.demand().nodesInUse().contains(node(1)), "the small job fits beside the old one");
    }

    @Test
    void aPackJobNeedsAllItsChunksOnOneNode() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(5);
        pool.job("pack", JobState.Queued, Placement.pack, false, new Chunk(2, 8, 0, 0));
        pool.job("toobig", JobState.Queued, Placement.pack, false, new Chunk(3, 8, 0, 0));
        Plan plan = pool.plan().plan();
        assertEquals(1, plan.demand().newNodes());
        assertEquals("toobig", plan.demand().unsatisfiable().get(0).jobId());
    }

    @Test
    void anUnsatisfiableJobStartsNothing() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(5);
        pool.queued("huge", 32);
        pool.job("gpu", JobState.Queued, Placement.free, false, new Chunk(1, 4, 0, 1));
        pool.job("wide", JobState.Queued, Placement.scatter, false, new Chunk(11, 1, 0, 0));
        Plan plan = pool.plan().plan();
        assertTrue(plan.starts().isEmpty());
        assertEquals(3, plan.demand().unsatisfiable().size());
        assertTrue(plan.notes().stream().anyMatch(n -> n.message().equals("job huge can never run in this pool: a "
                + "chunk needs 32 CPUs, 1024 MiB, 0 GPUs but an instance has 16 CPUs, 65536 MiB, 0 GPUs")),
                plan.notes().toString());
        assertTrue(plan.notes().stream().anyMatch(n -> n.message().contains("needs 11 nodes, one per chunk, but the "
                + "pool's max is 10")));
    }

    @Test
    void heldJobsAreIgnoredUnlessConfigured() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(5);
        pool.job("held", JobState.Hold, Placement.scatter, false, new Chunk(2, 16, 0, 0));
        pool.job("later", JobState.Waiting, Placement.free, false, new Chunk(1, 16, 0, 0));
        assertTrue(pool.plan().plan().starts().isEmpty());
        pool.countHeld = true;
        Plan plan = pool.plan().plan();
        assertEquals(2, started(plan).size(), "held counts, waiting still does not");
        assertEquals(1, plan.queuedJobs());
    }

    @Test
    void maxCapsTheStartsAndSaysSo() {
        PoolStateBuilder pool = new PoolStateBuilder().busyNode(1, 16, "a").busyNode(2, 16, "b").stopped(20);
        for (int i = 0; i < 20; i++) {
            pool.queued("j" + i, 16);
        }
        Plan plan = pool.plan().plan();
        assertEquals(8, plan.starts().size(), "max 10 with 2 running");
        assertEquals(List.of("12 queued jobs need more nodes than the pool's max of 10 allows"),
                notes(plan, EventKind.AT_MAX));
        pool.jobs.subList(3, 20).clear();
        pool.max = 4;
        assertEquals(List.of("1 queued job needs more nodes than the pool's max of 4 allows"),
                notes(pool.plan().plan(), EventKind.AT_MAX));
    }

    @Test
    void theStepLimitCapsStartsPerCycle() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(10);
        pool.maxStart = 3;
        for (int i = 0; i < 6; i++) {
            pool.queued("j" + i, 16);
        }
        assertEquals(3, pool.plan().plan().starts().size());
    }

    @Test
    void minIsKeptWithoutDemand() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minusSeconds(3600)).stopped(4);
        pool.min = 2;
        Plan plan = pool.plan().plan();
        assertEquals(1, plan.starts().size());
        assertEquals("the pool's min is 2 and 1 instance counts for it", plan.starts().get(0).reason());
        assertTrue(plan.drains().isEmpty(), "the idle node is part of the min");
    }

    @Test
    void stoppedInstancesStartBeforeNewOnesAreCreated() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(2);
        pool.canCreate = true;
        for (int i = 0; i < 5; i++) {
            pool.queued("j" + i, 16);
        }
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(1), id(2)), started(plan));
        assertEquals(3, plan.create().count());
        pool.jobs.subList(2, 5).clear();
        assertNull(pool.plan().plan().create(), "nothing is created while stopped instances suffice");
    }

    @Test
    void theRoomOfADownOrAdministratorOfflineNodeIsNotCounted() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW).stopped(3);
        pool.queued("j", 16);
        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), false, true, NOW, null));
        assertEquals(1, pool.plan().plan().starts().size(), "down");
        pool.replaceVm(1, new VmDocument(node(1), "p", node(1), NodeJobStatus.Free, "offline", true, false, false, false, 16,
                0, 65536, 0, 0, 0, List.of(), NOW, NOW, null, "agent-h-pbs"));
        assertEquals(1, pool.plan().plan().starts().size(), "offline by an administrator");
        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), true, false, NOW, null));
        Plan plan = pool.plan().plan();
        assertTrue(plan.starts().isEmpty(), "offline by hpcscale and no longer drained: it is returned to service");
        assertTrue(plan.demand().nodesInUse().contains(node(1)));
    }

    @Test
    void theUnusedCpusOfANodeAJobHoldsExclusivelyAreNoRoom() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(2);
        pool.instances.set(0, new Instance(id(1), node(1), PowerState.RUNNING));
        pool.vms.add(new VmDocument(node(1), "p", node(1), NodeJobStatus.Busy, "job-exclusive", false, false, false,
                true, 16, 1, 65536, 0, 0, 0, List.of("5.s"), NOW, NOW, null, "agent-h-pbs"));
        pool.queued("j", 1);
        assertEquals(List.of(id(2)), started(pool.plan().plan()), "15 CPUs show unused, but no job may use them");
    }

    @Test
    void aStoppedInstanceWhoseNodeAnAdministratorHoldsOfflineIsNeverStarted() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(2);
        pool.vms.add(new VmDocument(node(1), "p", node(1), NodeJobStatus.Free, "down,offline", true, false, true,
                false, 16, 0, 65536, 0, 0, 0, List.of(), NOW, NOW, null, "agent-h-pbs"));
        pool.queued("a", 16);
        pool.queued("b", 16);
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(2)), started(plan));
        assertTrue(plan.notes().stream().anyMatch(n -> n.kind() == EventKind.HELD_BY_ADMINISTRATOR
                && n.message().contains(node(1))), plan.notes().toString());
    }

    @Test
    void aNodeTheSchedulerCannotReachIsNeverAskedToDrainHoweverLongItLooksIdle() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofHours(2)));
        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), false, true, NOW.minus(Duration.ofHours(2)), null));
        assertTrue(drained(pool.plan().plan()).isEmpty(), "its occupancy is unknown");
    }

    @Test
    void onlyTheRoomLeftOnAPartlyUsedNodeIsCounted() {
        PoolStateBuilder pool = new PoolStateBuilder().busyNode(1, 8, "old").stopped(3);
        pool.queued("j", 16);
        assertEquals(1, pool.plan().plan().starts().size(), "8 CPUs left");
        pool.replaceVm(1, sized(1, 16, 0, 65536, 60000, 0, 0));
        pool.jobs.clear();
        pool.job("j", JobState.Queued, Placement.free, false, new Chunk(1, 4, 8192, 0));
        assertEquals(1, pool.plan().plan().starts().size(), "5.5 GiB left");
        pool.gpus = 2;
        pool.replaceVm(1, sized(1, 16, 0, 65536, 0, 2, 2));
        pool.jobs.clear();
        pool.job("j", JobState.Queued, Placement.free, false, new Chunk(1, 4, 0, 1));
        assertEquals(1, pool.plan().plan().starts().size(), "no GPU left");
    }

    @Test
    void aNodeThatDoesNotReportItsSizeIsTakenToHaveThePoolsShape() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW).stopped(3);
        pool.gpus = 2;
        pool.replaceVm(1, sized(1, 0, 0, 0, 0, 0, 0));
        pool.job("j", JobState.Queued, Placement.free, false, new Chunk(1, 16, 65536, 2));
        Plan plan = pool.plan().plan();
        assertTrue(plan.starts().isEmpty());
        assertEquals(Set.of(node(1)), plan.demand().nodesInUse());
    }

    @Test
    void anExclusiveJobTakesAnIdleRunningNodeButNotOneWithCpusInUse() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(30))).stopped(3);
        pool.job("excl", JobState.Queued, Placement.free, true, new Chunk(1, 4, 0, 0));
        Plan plan = pool.plan().plan();
        assertTrue(plan.starts().isEmpty());
        assertTrue(plan.drains().isEmpty(), "the job will run there");
        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 4, List.of(), false, false, NOW, null));
        assertEquals(1, pool.plan().plan().starts().size(), "a process the scheduler shows no job for uses CPUs");
    }

    @Test
    void bootingInstancesCountAsCapacity() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STARTING).stopped(5);
        pool.booting(1, NOW.minusSeconds(60));
        pool.queued("1", 16);
        assertTrue(pool.plan().plan().starts().isEmpty());
    }

    // ---- boot timeout and backoff ------------------------------------------------------------------------------

    @Test
    void anInstanceWhoseNodeNeverReportsIsTakenOutOfServiceThenStoppedAfterTheBootTimeout() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.RUNNING).instance(2, PowerState.RUNNING);
        pool.booting(1, NOW.minus(Duration.ofMinutes(21))).booting(2, NOW.minus(Duration.ofMinutes(19)));
        pool.vms.add(vm(1, NodeJobStatus.Free, 0, List.of(), false, true, null, null));
        PlanResult asked = pool.plan();
        assertEquals(List.of(), stopped(asked.plan()), "down is no proof: a restarted scheduler shows nodes down");
        assertEquals(List.of(node(1)), drained(asked.plan()));

        Instant requestedAt = NOW.minusSeconds(60);
        pool.drain(1, requestedAt);
        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), true, true, null, requestedAt));
        PlanResult result = pool.plan();
        assertEquals(List.of(id(1)), stopped(result.plan()));
        assertEquals(StopKind.BOOT_FAILURE, result.plan().stops().get(0).kind());
        assertEquals(0, result.state().consecutiveBootFailures(), "counted only once the stop is done");
        assertEquals(NOW.minus(Duration.ofMinutes(19)), result.state().bootingSince(id(2)));
    }

    @Test
    void anInstanceWhoseNodeNoAgentReportsIsStoppedAtOnceAfterTheBootTimeout() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.RUNNING);
        pool.booting(1, NOW.minus(Duration.ofMinutes(21)));
        pool.vms.add(vm(9, NodeJobStatus.Free, 0, List.of(), false, false, null, null));
        assertEquals(List.of(id(1)), stopped(pool.plan().plan()), "a node no scheduler lists runs no job");
    }

    @Test
    void anInstancePastItsBootTimeoutIsNotStoppedWhileTheSchedulerListsAJobOnItsNode() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.RUNNING);
        pool.booting(1, NOW.minus(Duration.ofMinutes(21)));
        Instant requestedAt = NOW.minusSeconds(60);
        pool.drain(1, requestedAt);
        pool.vms.add(vm(1, NodeJobStatus.Busy, 0, List.of("17"), true, true, null, requestedAt));
        PlanResult withJob = pool.plan();
        assertTrue(withJob.plan().stops().isEmpty(), "a down node the scheduler still lists job 17 on");
        assertTrue(noted(withJob.plan(), EventKind.WAITING_FOR_JOBS));

        pool.vms.clear();
        pool.vms.add(vm(1, NodeJobStatus.Free, 0, List.of(), true, true, null, requestedAt));
        pool.state = withJob.state();
        assertEquals(List.of(id(1)), stopped(pool.plan().plan()), "the scheduler requeued the job");
    }

    @Test
    void aNodeThatReportsEndsItsBootAndResetsTheFailures() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW);
        pool.booting(1, NOW.minusSeconds(300));
        pool.state = pool.state.withBootFailures(2);
        PlanResult result = pool.plan();
        assertTrue(result.plan().stops().isEmpty());
        assertEquals(0, result.state().consecutiveBootFailures());
        assertNull(result.state().bootingSince(id(1)));
    }

    @Test
    void aFailedBootStopAnEarlierScalerAskedForIsCountedOnceTheListingShowsItStopped() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STOPPED).stopped(3);
        pool.booting(1, NOW.minus(Duration.ofMinutes(25)));
        pool.state = pool.state.withBootFailures(2).withInstance(id(1), pool.state.instance(id(1)).orElseThrow()
                .withPending(new InstanceRecord.Pending(StopKind.BOOT_FAILURE, NOW.minusSeconds(60), "no report")));
        pool.queued("1", 16);
        PlanResult result = pool.plan();
        assertEquals(NOW.plus(Duration.ofMinutes(10)), result.state().backoffUntil());
        assertEquals(NOW.minusSeconds(60), result.state().instance(id(1)).orElseThrow().stoppedAt());
        assertNull(result.state().instance(id(1)).orElseThrow().pending());
        assertTrue(result.plan().starts().isEmpty(), "no start in the cycle that set the backoff");
        assertEquals(List.of(id(1) + ": the stop asked at " + NOW.minusSeconds(60) + " by a scaler that did not "
                + "record its outcome: the cloud lists it stopped; counted as a failed boot"), settled(result));
        assertEquals("3 boots in a row failed: no instance is started until " + NOW.plus(Duration.ofMinutes(10)),
                notes(result.plan(), EventKind.BACKOFF).get(0));
    }

    @Test
    void aPendingStopOfAnInstanceStillRunningIsForgottenAndDecidedAgain() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.RUNNING);
        pool.booting(1, NOW.minus(Duration.ofMinutes(25)));
        pool.state = pool.state.withInstance(id(1), pool.state.instance(id(1)).orElseThrow()
                .withPending(new InstanceRecord.Pending(StopKind.BOOT_FAILURE, NOW.minusSeconds(60), "no report")));
        PlanResult result = pool.plan();
        assertEquals(0, result.state().consecutiveBootFailures());
        assertEquals(List.of(id(1)), stopped(result.plan()), "still past its boot timeout: stopped again");
        assertNull(result.state().instance(id(1)).orElseThrow().pending());
        assertEquals(List.of(id(1) + ": the stop asked at " + NOW.minusSeconds(60) + " by a scaler that did not "
                + "record its outcome did not happen: the cloud lists it running"), settled(result));
    }

    @Test
    void aPendingStartOfAnInstanceNowActiveBootsFromTheRequest() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.RUNNING).instance(2, PowerState.STOPPED);
        Instant asked = NOW.minus(Duration.ofMinutes(21));
        for (int i = 1; i <= 2; i++) {
            pool.state = pool.state.withInstance(id(i), InstanceRecord.blank()
                    .withPending(new InstanceRecord.Pending(null, asked, "queued jobs")));
        }
        PlanResult result = pool.plan();
        assertEquals(asked, result.state().bootingSince(id(1)), "its boot is timed from the start request");
        assertEquals(List.of(id(1)), stopped(result.plan()), "and it is past its boot timeout");
        assertNull(result.state().instance(id(2)).orElseThrow().pending(), "the start of the stopped one never "
                + "happened");
        assertNull(result.state().bootingSince(id(2)));
        String asking = "the start asked at " + asked + " by a scaler that did not record its outcome";
        assertEquals(List.of(id(1) + ": " + asking + ": the cloud lists it running, its boot is timed from then",
                id(2) + ": " + asking + " did not happen: the cloud lists it stopped"), settled(result));
    }

    @Test
    void aFailedBootBelowTheThresholdIsCountedWithoutBackoff() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STOPPED);
        pool.booting(1, NOW.minus(Duration.ofMinutes(25)));
        pool.state = pool.state.withInstance(id(1), pool.state.instance(id(1)).orElseThrow()
                .withPending(new InstanceRecord.Pending(StopKind.BOOT_FAILURE, NOW.minusSeconds(60), "no report")));
        PlanResult result = pool.plan();
        assertEquals(1, result.state().consecutiveBootFailures());
        assertNull(result.state().backoffUntil());
        assertTrue(notes(result.plan(), EventKind.BACKOFF).isEmpty());
    }

    @Test
    void aDrainedStopAnEarlierScalerAskedForIsNotAFailedBoot() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STOPPED);
        InstanceRecord drainedStop = InstanceRecord.seenActive(NOW.minus(Duration.ofHours(2)), false)
                .withPending(new InstanceRecord.Pending(StopKind.DRAINED, NOW.minusSeconds(60), "idle"));
        pool.state = pool.state.withBootFailures(2).withInstance(id(1), drainedStop);
        PlanResult result = pool.plan();
        assertEquals(2, result.state().consecutiveBootFailures());
        assertEquals(StopKind.DRAINED, result.state().instance(id(1)).orElseThrow().stopKind());
        assertEquals(List.of(id(1) + ": the stop asked at " + NOW.minusSeconds(60) + " by a scaler that did not "
                + "record its outcome: the cloud lists it stopped"), settled(result));
    }

    @Test
    void aPendingCreateIsSettledAsItsInstancesAppear() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STARTING);
        Instant asked = NOW.minusSeconds(60);
        pool.state = pool.state.withPendingCreate(new ScalerStateDocument.PendingCreate(2, asked, "2 queued jobs"));
        PlanResult oneOfTwo = pool.plan();
        assertEquals(new ScalerStateDocument.PendingCreate(1, asked, "2 queued jobs"),
                oneOfTwo.state().pendingCreate());
        assertEquals(asked, oneOfTwo.state().bootingSince(id(1)));

        pool.state = oneOfTwo.state();
        pool.instance(2, PowerState.STARTING);
        PlanResult both = pool.plan();
        assertNull(both.state().pendingCreate());
        assertEquals("2 queued jobs", both.state().instance(id(2)).orElseThrow().startReason());
    }

    @Test
    void moreInstancesThanAPendingCreateAskedForAreFoundNotStarted() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STARTING)
                .instance(2, PowerState.STARTING);
        Instant asked = NOW.minusSeconds(60);
        pool.state = pool.state.withPendingCreate(new ScalerStateDocument.PendingCreate(1, asked, "1 queued job"));
        PlanResult result = pool.plan();
        assertTrue(result.state().instance(id(1)).orElseThrow().startedByHpcscale());
        assertFalse(result.state().instance(id(2)).orElseThrow().startedByHpcscale());
        assertEquals(NOW, result.state().bootingSince(id(2)));
        assertNull(result.state().pendingCreate());
    }

    @Test
    void aPendingCreateNothingCameOfIsForgottenAfterTheBootTimeout() {
        PoolStateBuilder pool = new PoolStateBuilder();
        ScalerStateDocument.PendingCreate recent = new ScalerStateDocument.PendingCreate(1,
                NOW.minus(Duration.ofMinutes(19)), "1 queued job");
        pool.state = pool.state.withPendingCreate(recent);
        assertEquals(recent, pool.plan().state().pendingCreate(), "the instance may still appear");
        pool.state = pool.state.withPendingCreate(new ScalerStateDocument.PendingCreate(1,
                NOW.minus(Duration.ofMinutes(20)), "1 queued job"));
        assertNull(pool.plan().state().pendingCreate());
    }

    @Test
    void aBootingInstanceFoundStoppedNoLongerBoots() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STOPPED);
        pool.booting(1, NOW.minus(Duration.ofMinutes(5)));
        PlanResult result = pool.plan();
        assertNull(result.state().bootingSince(id(1)));
        assertTrue(result.plan().stops().isEmpty());
    }

    @Test
    void aBootingInstanceFoundStoppedIsNeitherAFailedBootNorAnEviction() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STOPPED);
        pool.spot = true;
        pool.booting(1, NOW.minus(Duration.ofMinutes(5)));
        PlanResult result = pool.plan();
        assertEquals(0, result.state().evictions());
        assertEquals(0, result.state().consecutiveBootFailures());
        assertEquals(StopKind.STOPPED_ELSEWHERE, result.state().instance(id(1)).orElseThrow().stopKind());
        assertEquals(List.of(EventKind.STOPPED_ELSEWHERE), found(result));
    }

    @Test
    void aSpotInstanceFoundStoppedThatHpcscaleDidNotStopIsAnEvictionCountedOnce() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minusSeconds(60)).stopped(1);
        pool.spot = true;
        pool.state = pool.state.withInstance(id(1), InstanceRecord.seenActive(NOW.minus(Duration.ofHours(1)), false));
        pool.instances.set(0, new io.hpcscale.scaler.cloud.Instance(id(1), node(1), PowerState.STOPPED));
        pool.queued("requeued", 16);

        PlanResult result = pool.plan();

        assertEquals(List.of(EventKind.EVICTED), found(result));
        assertEquals(1, result.state().evictions());
        assertEquals(StopKind.EVICTED, result.state().instance(id(1)).orElseThrow().stopKind());
        assertEquals(List.of(id(1)), started(result.plan()), "started again for the job it ran");

        pool.state = result.state();
        PlanResult again = pool.plan();
        assertTrue(found(again).isEmpty(), "one eviction, one event");
        assertEquals(1, again.state().evictions());
    }

    @Test
    void aSpotInstanceThatVanishedIsAnEviction() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(1);
        pool.spot = true;
        pool.state = pool.state.withInstance(id(7), InstanceRecord.blank().started(NOW.minus(Duration.ofHours(2)),
                "jobs").bootEnded());
        PlanResult result = pool.plan();
        assertEquals(List.of(EventKind.EVICTED), found(result));
        assertEquals(1, result.state().evictions());
        assertTrue(result.state().instance(id(7)).isEmpty(), "the record of an instance the cloud lost goes");
    }

    @Test
    void anInstanceThatVanishesSoonAfterThePoolGrewIsAnOverprovisionedExtraNotAnEviction() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(1);
        pool.spot = true;
        Instant grown = NOW.minus(Duration.ofMinutes(4));
        pool.state = pool.state.grown(grown).withInstance(id(7), InstanceRecord.seenActive(grown.plusSeconds(40),
                true));

        PlanResult result = pool.plan();

        assertTrue(found(result).isEmpty(), "no eviction event");
        assertEquals(0, result.state().evictions());
        assertFalse(result.state().inBackoff(NOW));
        assertTrue(result.plan().notes().stream().anyMatch(n -> n.kind() == EventKind.OVERPROVISIONED
                && n.message().contains("overprovisions")), result.plan().notes().toString());
    }

    @Test
    void anInstanceThatVanishesLongAfterTheLastGrowthIsStillAnEviction() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(1);
        pool.spot = true;
        Instant grown = NOW.minus(Duration.ofHours(2));
        pool.state = pool.state.grown(grown).withInstance(id(7), InstanceRecord.seenActive(grown.plusSeconds(40),
                false));

        assertEquals(List.of(EventKind.EVICTED), found(pool.plan()));
    }

    @Test
    void aVmWhoseProvisioningFailedIsAFailedBootWhenHpcscaleStartedItAndNeverStartedAgain() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.FAILED);
        pool.instances.set(0, new io.hpcscale.scaler.cloud.Instance(id(1), node(1), PowerState.FAILED,
                new io.hpcscale.scaler.cloud.InstanceFailure("OSProvisioningTimedOut", "timed out", false)));
        pool.booting(1, NOW.minus(Duration.ofMinutes(5)));
        pool.queued("waiting", 16);

        PlanResult result = pool.plan();

        assertEquals(List.of(EventKind.FAILED_VM), found(result));
        assertEquals(1, result.state().consecutiveBootFailures());
        assertEquals(StopKind.BOOT_FAILURE, result.state().instance(id(1)).orElseThrow().stopKind());
        assertTrue(started(result.plan()).isEmpty(), "a failed VM is not started again");
    }

    @Test
    void anInstanceInAnUnknownPowerStateStartsNoBootClockAndIsNeitherStartedNorStopped() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.UNKNOWN);
        pool.queued("waiting", 16);

        PlanResult result = pool.plan();

        assertNull(result.state().bootingSince(id(1)));
        assertTrue(started(result.plan()).isEmpty());
        assertTrue(result.plan().stops().isEmpty());
    }

    @Test
    void anInstanceListedStartingWhoseNodeTookAJobSinceItsStartIsUp() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STARTING);
        pool.booting(1, NOW.minus(Duration.ofMinutes(4)));
        pool.vms.add(PoolStateBuilder.vm(1, NodeJobStatus.Busy, 16, List.of("7.pbs"), false, false,
                NOW.minusSeconds(30), null));

        PlanResult result = pool.plan();

        assertNull(result.state().bootingSince(id(1)), "its node runs a job: the boot is over");
    }

    @Test
    void anInstanceListedStartingWhoseNodeMerelyReportsKeepsBooting() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STARTING);
        pool.booting(1, NOW.minus(Duration.ofMinutes(4)));
        pool.vms.add(PoolStateBuilder.vm(1, NodeJobStatus.Free, 0, List.of(), false, false,
                NOW.minus(Duration.ofHours(1)), null));

        PlanResult result = pool.plan();

        assertNotNull(result.state().bootingSince(id(1)), "a node the scheduler has not yet seen go down is no proof");
        assertTrue(result.plan().drains().isEmpty());
    }

    @Test
    void anInstanceAGrowthAskedForThatFailedIsAFailedBoot() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.FAILED);
        pool.instances.set(0, new io.hpcscale.scaler.cloud.Instance(id(1), node(1), PowerState.FAILED,
                new io.hpcscale.scaler.cloud.InstanceFailure("AllocationFailed", "no room", true)));
        pool.state = pool.state.withPendingCreate(new ScalerStateDocument.PendingCreate(1,
                NOW.minus(Duration.ofMinutes(2)), "jobs"));

        PlanResult result = pool.plan();

        assertEquals(List.of(EventKind.FAILED_VM), found(result));
        assertEquals(1, result.state().consecutiveBootFailures());
    }

    @Test
    void anInstanceStoppedByAnotherHandIsRecordedButNotCountedAsAnEviction() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STOPPED);
        pool.state = pool.state.withInstance(id(1), InstanceRecord.seenActive(NOW.minus(Duration.ofHours(1)), false));
        PlanResult result = pool.plan();
        assertEquals(List.of(EventKind.STOPPED_ELSEWHERE), found(result));
        assertEquals(0, result.state().evictions());
    }

    @Test
    void aStopHpcscaleAskedForIsNeverTakenForAnEviction() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STOPPED);
        pool.spot = true;
        pool.state = pool.state.withInstance(id(1), InstanceRecord.seenActive(NOW.minus(Duration.ofHours(1)), false)
                .withPending(new InstanceRecord.Pending(StopKind.DRAINED, NOW.minusSeconds(90), "drained")));
        PlanResult result = pool.plan();
        assertEquals(List.of(EventKind.SETTLED), found(result));
        assertEquals(0, result.state().evictions());
        assertEquals(StopKind.DRAINED, result.state().instance(id(1)).orElseThrow().stopKind());
    }

    @Test
    void anInstanceFoundStartingThatHpcscaleDidNotStartBootsFromNow() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STARTING);
        pool.state = pool.state.withInstance(id(1), InstanceRecord.seenActive(NOW.minus(Duration.ofHours(3)), false)
                .stopped(NOW.minus(Duration.ofHours(1)), StopKind.DRAINED, "idle"));
        PlanResult result = pool.plan();
        assertEquals(NOW, result.state().bootingSince(id(1)), "someone else started it: timed from when it was seen");
        assertFalse(result.state().instance(id(1)).orElseThrow().startedByHpcscale());
    }

    @Test
    void anInstanceSomeoneElseStartedAgainIsNotTimedAsABootAndSoNeverStoppedForOne() {
        // Last known stopped, found running, and hpcscale asked nothing: an administrator started it, and its node may
        // run jobs under a mapping hpcscale does not know. A start of hpcscale's whose answer was lost stays pending
        // instead (Actuation), and is timed from the start by the next listing.
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.RUNNING);
        pool.state = pool.state.withInstance(id(1), InstanceRecord.seenActive(NOW.minus(Duration.ofHours(3)), false)
                .stopped(NOW.minus(Duration.ofHours(1)), StopKind.EVICTED, "evicted"));
        PlanResult result = pool.plan();
        assertEquals(null, result.state().bootingSince(id(1)), "not a boot of hpcscale's");
        assertTrue(result.plan().stops().isEmpty(), "never stopped as a failed boot");
    }

    @Test
    void instancesFoundActiveAfterAPendingCreateAreItsBoots() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.RUNNING).instance(2, PowerState.RUNNING)
                .freeNode(3, NOW.minusSeconds(30));
        Instant asked = NOW.minus(Duration.ofMinutes(21));
        pool.state = pool.state.withInstance(id(3), InstanceRecord.seenActive(NOW.minus(Duration.ofHours(1)), false))
                .withPendingCreate(new ScalerStateDocument.PendingCreate(2, asked, "2 queued jobs"));
        PlanResult result = pool.plan();
        assertEquals(asked, result.state().bootingSince(id(1)));
        assertEquals(asked, result.state().bootingSince(id(2)));
        assertEquals("2 queued jobs", result.state().instance(id(1)).orElseThrow().startReason());
        assertNull(result.state().pendingCreate());
        assertEquals(List.of(id(1), id(2)), stopped(result.plan()), "never reported within the boot timeout");
    }

    @Test
    void anActiveInstanceNoRecordExplainsIsRecordedAsFoundNotStarted() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STARTING).freeNode(2, NOW);
        PlanResult result = pool.plan();
        assertEquals(NOW, result.state().bootingSince(id(1)), "its boot is timed from when it was first seen");
        assertFalse(result.state().instance(id(1)).orElseThrow().startedByHpcscale());
        assertNull(result.state().bootingSince(id(2)));
        assertEquals(NOW, result.state().instance(id(2)).orElseThrow().startedAt());
    }

    @Test
    void aPoolInBackoffAfterACapacityErrorStartsNothing() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(3);
        pool.state = pool.state.backoff(NOW.plusSeconds(300), "capacity error: AllocationFailed");
        pool.queued("1", 16);
        Plan plan = pool.plan().plan();
        assertTrue(plan.starts().isEmpty());
        assertTrue(plan.notes().stream().anyMatch(n -> n.kind() == EventKind.BACKOFF
                && n.message().contains("AllocationFailed")));
        pool.state = pool.state.backoff(NOW.minusSeconds(1), "over");
        assertEquals(1, pool.plan().plan().starts().size(), "the backoff has passed");
    }

    @Test
    void anInstanceRunningWithoutAReportedNodeIsNeverStopped() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.RUNNING);
        PlanResult result = pool.plan();
        assertTrue(result.plan().stops().isEmpty() && result.plan().drains().isEmpty());
        assertTrue(noted(result.plan(), EventKind.UNREPORTED_NODE));
        pool.poolOfNode.put(node(1), "other");
        assertFalse(noted(pool.plan().plan(), EventKind.UNREPORTED_NODE), "reported by another pool");
    }

    // ---- scale-down --------------------------------------------------------------------------------------------

    @Test
    void drainsANodeIdleLongerThanTheIdleTimeoutOnly() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(6)))
                .freeNode(2, NOW.minus(Duration.ofMinutes(4)));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(node(1)), drained(plan));
        assertTrue(plan.drains().get(0).reason().startsWith("idle for 6m (idle timeout 5m)"));
        assertTrue(plan.stops().isEmpty(), "never stopped on a free flag alone");
    }

    @Test
    void doesNotDrainANodeQueuedJobsWillUse() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(30)));
        pool.queued("waiting", 8);
        Plan plan = pool.plan().plan();
        assertTrue(plan.drains().isEmpty() && plan.starts().isEmpty());
    }

    @Test
    void drainsKeepThePoolAtItsMinAndWithinTheStepLimit() {
        PoolStateBuilder pool = new PoolStateBuilder();
        for (int i = 1; i <= 6; i++) {
            pool.freeNode(i, NOW.minus(Duration.ofMinutes(10 + i)));
        }
        pool.min = 2;
        pool.maxStop = 3;
        assertEquals(List.of(node(6), node(5), node(4)), drained(pool.plan().plan()), "longest idle first");
        pool.maxStop = 10;
        assertEquals(4, drained(pool.plan().plan()).size());
    }

    @Test
    void aFailedBootBeingStoppedDoesNotHoldBackADrainTheMinAllows() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(30)))
                .freeNode(2, NOW.minus(Duration.ofMinutes(20))).instance(3, PowerState.RUNNING);
        pool.booting(3, NOW.minus(Duration.ofMinutes(21)));
        pool.drain(3, NOW.minusSeconds(60));
        pool.vms.add(vm(3, NodeJobStatus.Free, 0, List.of(), true, true, null, NOW.minusSeconds(60)));
        pool.min = 1;
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(3)), stopped(plan));
        assertEquals(List.of(node(1)), drained(plan), "two nodes stay up for a min of one: the longer idle goes");
        pool.min = 2;
        assertTrue(drained(pool.plan().plan()).isEmpty(), "and none goes below the min");
    }

    @Test
    void aNodeIsDrainedOnceItHasBeenIdleForExactlyTheIdleTimeout() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(5)));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(node(1)), drained(plan));
        assertFalse(plan.isEmpty());
    }

    @Test
    void aDrainedNodeBeingStoppedCountsOnceTowardsTheMin() {
        PoolStateBuilder pool = new PoolStateBuilder();
        for (int i = 1; i <= 4; i++) {
            pool.freeNode(i, NOW.minus(Duration.ofMinutes(30 + i)));
        }
        pool.drain(1, NOW.minusSeconds(120));
        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), true, false, NOW.minus(Duration.ofMinutes(31)),
                NOW.minusSeconds(120)));
        pool.min = 2;
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(1)), stopped(plan));
        assertEquals(List.of(node(4)), drained(plan), "four up, one going: one more may go for a min of two");
    }

    @Test
    void aNodeWhoseDrainIsWithdrawnCountsTowardsTheMin() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(30)))
                .freeNode(2, NOW.minus(Duration.ofMinutes(30)));
        pool.replaceVm(2, new VmDocument(node(2), "p", node(2), NodeJobStatus.Free, "free", false, false, false, false, 8, 0,
                65536, 0, 0, 0, List.of(), NOW.minus(Duration.ofMinutes(30)), NOW, null, "agent-h-pbs"));
        pool.drain(1, NOW.minusSeconds(120));
        pool.queued("needs-16", 16);
        pool.min = 1;
        Plan plan = pool.plan().plan();
        assertEquals(List.of(node(1)), cancelled(plan), "only node 1 has room for the job");
        assertEquals(List.of(node(2)), drained(plan), "node 1 stays, so the smaller idle node may go");
    }

    @Test
    void stopsADrainedNodeOnlyWhenTheAgentConfirmedItOfflineAndEmptyAfterTheRequest() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(10)));
        pool.drain(1, NOW.minusSeconds(120));
        assertTrue(pool.plan().plan().stops().isEmpty(), "the agent has not acted yet");

        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), true, false, NOW.minus(Duration.ofMinutes(10)),
                NOW.minusSeconds(300)));
        assertTrue(pool.plan().plan().stops().isEmpty(), "offline, but read for an older drain request");

        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), true, false, NOW.minus(Duration.ofMinutes(10)),
                NOW.minusSeconds(120)));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(1)), stopped(plan));
        assertEquals(StopKind.DRAINED, plan.stops().get(0).kind());
    }

    @Test
    void aJobThatLandedBeforeTheOfflineKeepsTheNodeRunning() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(10)));
        pool.drain(1, NOW.minusSeconds(120));
        pool.replaceVm(1, vm(1, NodeJobStatus.Busy, 16, List.of("late"), true, false, NOW, NOW.minusSeconds(120)));
        Plan plan = pool.plan().plan();
        assertTrue(plan.stops().isEmpty());
        assertTrue(plan.notes().stream().anyMatch(n -> n.kind() == EventKind.WAITING_FOR_JOBS
                && n.message().contains("still runs late")));
    }

    @Test
    void withdrawsADrainWhenDemandReturns() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(10))).stopped(3);
        pool.drain(1, NOW.minusSeconds(120));
        pool.queued("new", 16);
        Plan plan = pool.plan().plan();
        assertEquals(List.of(node(1)), plan.cancels().stream().map(Plan.CancelDrain::node).toList());
        assertTrue(plan.starts().isEmpty(), "the drained node takes the job");
        assertTrue(plan.stops().isEmpty());
    }

    @Test
    void startingADrainedStoppedInstanceWithdrawsItsDrain() {
        PoolStateBuilder pool = new PoolStateBuilder().instance(1, PowerState.STOPPED);
        pool.drain(1, NOW.minus(Duration.ofHours(2)));
        pool.queued("new", 16);
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(1)), started(plan));
        assertTrue(plan.starts().get(0).withdrawDrain());
    }

    @Test
    void aNodeIsMatchedToItsMachineWithoutCaseOrDomainAndKeepsTheSchedulersSpelling() {
        PoolStateBuilder pool = new PoolStateBuilder();
        pool.instanceNamed(1, "P-VM001", PowerState.RUNNING).instanceNamed(2, "P-VM002", PowerState.RUNNING);
        pool.booting(2, NOW.minus(Duration.ofHours(1)));
        pool.vms.add(renamed(vm(1, NodeJobStatus.Free, 0, List.of(), false, false,
                NOW.minus(Duration.ofMinutes(30)), null), "p-vm001.cluster.local"));
        pool.vms.add(renamed(vm(2, NodeJobStatus.Busy, 16, List.of("j"), false, false, NOW, null), "p-vm002"));
        Plan plan = pool.plan().plan();
        assertTrue(plan.stops().isEmpty(), "p-vm002 reported, so its boot ended; it runs a job");
        assertEquals(List.of("p-vm001.cluster.local"), plan.drains().stream().map(Plan.DrainRequest::node).toList());

        pool.drains.add(DrainDocument.request("p", "p-vm001.cluster.local", "idle",
                NOW.minusSeconds(120)));
        pool.vms.removeIf(v -> v.name().startsWith("p-vm001"));
        pool.vms.add(renamed(vm(1, NodeJobStatus.Free, 0, List.of(), true, false, NOW.minus(Duration.ofMinutes(30)),
                NOW.minusSeconds(120)), "p-vm001.cluster.local"));
        plan = pool.plan().plan();
        assertEquals(List.of(id(1)), stopped(plan));
        assertEquals("p-vm001.cluster.local", plan.stops().get(0).node(), "re-checked under the scheduler's name");
    }

    @Test
    void aReportedNodeThatNoInstanceIsIsReportedAndLeftAlone() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofHours(1)));
        pool.vms.add(renamed(vm(1, NodeJobStatus.Free, 0, List.of(), false, false, NOW.minus(Duration.ofHours(1)),
                null), "stranger01"));
        Plan plan = pool.plan().plan();
        assertEquals(List.of("1 node reported in this pool matches no instance of its scale set: stranger01 (check "
                + "the pool's node naming, e.g. azure.nodeName, and the agent's queue or partition mapping); "
                + "hpcscale leaves them alone"), notes(plan, EventKind.NODE_WITHOUT_INSTANCE));
        assertEquals(List.of(node(1)), drained(plan), "only the instance's own node is drained");
    }

    private static VmDocument renamed(VmDocument vm, String name) {
        return new VmDocument(name, vm.poolName(), name, vm.jobStatus(), vm.schedulerState(), vm.offline(),
                vm.offlineByHpcscale(),
                vm.down(), false, vm.cpusTotal(), vm.cpusUsed(), vm.memoryMb(), vm.memoryMbUsed(), vm.gpus(), vm.gpusUsed(),
                vm.jobIds(), vm.lastBusyAt(), vm.seenAt(), vm.drainRequestedAt(), vm.agent());
    }

    @Test
    void aStaleHeartbeatBlocksScaleDown() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(30)))
                .freeNode(2, NOW.minus(Duration.ofMinutes(30))).stopped(2);
        pool.drain(2, NOW.minusSeconds(600));
        pool.replaceVm(2, vm(2, NodeJobStatus.Free, 0, List.of(), true, false, NOW.minus(Duration.ofMinutes(30)),
                NOW.minusSeconds(600)));
        pool.queued("j", 16);
        pool.agentReadAt = NOW.minus(Duration.ofMinutes(7));
        Plan plan = pool.plan().plan();
        assertTrue(plan.drains().isEmpty() && plan.stops().isEmpty() && plan.starts().isEmpty());
        assertTrue(plan.notes().stream().anyMatch(n -> n.kind() == EventKind.STALE
                && n.message().contains("more than 6m ago")), plan.notes().toString());
        pool.agentReadAt = null;
        assertTrue(noted(pool.plan().plan(), EventKind.STALE));
    }

    @Test
    void aStalePoolStillWithdrawsTheDrainsOfInstancesThatAreGone() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(30)));
        pool.drain(1, NOW.minusSeconds(600)).drain(5, NOW.minusSeconds(600));
        pool.agentReadAt = NOW.minus(Duration.ofMinutes(30));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(node(5)), cancelled(plan));
        assertEquals("no instance has this node any more", plan.cancels().get(0).reason());
    }

    @Test
    void anUnknownInstanceListBlocksScaleDown() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(30)));
        pool.drain(1, NOW.minusSeconds(120));
        pool.replaceVm(1, vm(1, NodeJobStatus.Free, 0, List.of(), true, false, NOW, NOW.minusSeconds(120)));
        pool.queued("j", 16);
        pool.unknown = InstanceList.unknown("429 TooManyRequests");
        Plan plan = pool.plan().plan();
        assertTrue(plan.isEmpty(), "no stop, no drain, no start: unknown is not zero");
        assertTrue(plan.notes().get(0).message().contains("429 TooManyRequests"));
        assertNull(plan.create());
    }

    @Test
    void neverDrainsANodeAnAdministratorTookOffline() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofMinutes(30)));
        pool.replaceVm(1, new io.hpcscale.common.model.VmDocument(node(1), "p", node(1), NodeJobStatus.Free, "offline",
                true, false, false, false, 16, 0, 65536, 0, 0, 0, List.of(), NOW.minus(Duration.ofMinutes(30)), NOW, null,
                "a"));
        assertTrue(pool.plan().plan().drains().isEmpty());
    }

    // ---- Slurm power saving ------------------------------------------------------------------------------------

    private static PowerDocument power(int i, PowerDocument.Action a) {
        return PowerDocument.request("p", node(i), a, NOW.minusSeconds(10));
    }

    @Test
    void powerSavingStartsExactlyTheNodesSlurmResumesAndPlansNothingElse() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW.minus(Duration.ofHours(1))).stopped(3);
        pool.powerSaving = true;
        pool.queued("would-need-more", 16);
        pool.queued("and-more", 16);
        pool.powerRequests.add(power(3, PowerDocument.Action.resume));
        pool.powerRequests.add(power(1, PowerDocument.Action.resume));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(3)), started(plan), "only what Slurm asked for");
        assertTrue(plan.starts().get(0).powerRequest());
        assertEquals(List.of(node(1)), plan.powerDone().stream().map(Plan.PowerDone::node).toList(),
                "node 1 already runs");
        assertTrue(plan.drains().isEmpty(), "Slurm decides when idle nodes go");
    }

    @Test
    void powerSavingStopsASuspendedNodeOnlyWhenItRunsNoJob() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW).busyNode(2, 16, "late");
        pool.powerSaving = true;
        pool.powerRequests.add(power(1, PowerDocument.Action.suspend));
        pool.powerRequests.add(power(2, PowerDocument.Action.suspend));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(1)), stopped(plan));
        assertEquals(StopKind.POWER_SAVING, plan.stops().get(0).kind());
        assertTrue(noted(plan, EventKind.WAITING_FOR_JOBS));
        pool.agentReadAt = NOW.minus(Duration.ofMinutes(30));
        assertTrue(pool.plan().plan().stops().isEmpty(), "not on stale data");
    }

    @Test
    void powerSavingCountsRunningInstancesAgainstMaxAndOnlyRealStartsAgainstTheRoom() {
        PoolStateBuilder pool = new PoolStateBuilder().freeNode(1, NOW).stopped(2);
        pool.powerSaving = true;
        pool.max = 2;
        pool.powerRequests.add(PowerDocument.request("p", node(1), PowerDocument.Action.resume, NOW.minusSeconds(30)));
        pool.powerRequests.add(power(2, PowerDocument.Action.resume));
        pool.powerRequests.add(power(3, PowerDocument.Action.resume));
        Plan plan = pool.plan().plan();
        assertEquals(List.of(id(2)), started(plan));
        assertEquals(List.of(new Plan.PowerDone(node(1), "its instance is already running")), plan.powerDone());
        assertEquals(List.of("the scheduler asks to resume p-vm003 but the pool is at its max of 2 or its step limit"),
                notes(plan, EventKind.AT_MAX));
    }

    @Test
    void powerSavingResumesRespectMaxAndBackoff() {
        PoolStateBuilder pool = new PoolStateBuilder().stopped(4);
        pool.powerSaving = true;
        pool.max = 2;
        for (int i = 1; i <= 4; i++) {
            pool.powerRequests.add(power(i, PowerDocument.Action.resume));
        }
        Plan plan = pool.plan().plan();
        assertEquals(2, plan.starts().size());
        assertTrue(noted(plan, EventKind.AT_MAX));
        pool.state = pool.state.backoff(NOW.plusSeconds(60), "capacity");
        assertTrue(pool.plan().plan().starts().isEmpty());
    }
}
