package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.WaitReasonsDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the agent shows users why their jobs wait ({@link WaitReasonsDocument}, {@link WaitReasonsShown}). */
class AgentWaitReasonsTest {
    private static final String PROTECTED = "pool hc is protected after 5 failed boots in a row: no node starts "
            + "until an administrator resumes it";
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-27T10:00:00Z"));
    private final DocumentStore documents = new DocumentStore(new InMemoryClusterLoadStore(clock));
    private final FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
    private final PoolMap pools = new PoolMap(Map.of("hc", "hc", "gpu", "gpu"), Map.of());
    private Agent agent = new Agent(scheduler, documents, pools, "head", "test");

    private CycleReport cycle() throws InterruptedException {
        clock.advance(Duration.ofSeconds(10));
        return agent.runOnce(clock.instant());
    }

    private void queued(String job, String queue, Instant submitted) {
        scheduler.putJob(new SchedulerJob(job, List.of(queue), JobState.Queued, List.of(new Chunk(1, 4, 1024, 0)), 1,
                Placement.free, false, submitted));
    }

    /** As the scaler writes it: the reasons, then the marker. */
    private void scalerSays(WaitReasonsDocument reasons) {
        documents.upsert(List.of(reasons, new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
    }

    private long reasonCommands(String job) {
        return scheduler.commands().stream().filter(c -> c.startsWith("reason " + job + " ")).count();
    }

    @Test
    void aPoolWideReasonReachesAJobThatWaitedAMinuteOnceAndOnlyWhileItHolds() throws Exception {
        queued("7.hc", "hc", clock.instant().minus(Duration.ofMinutes(5)));
        queued("8.hc", "hc", clock.instant());
        cycle();
        scalerSays(new WaitReasonsDocument("hc", PROTECTED, Map.of()));
        cycle();
        cycle();
        assertEquals("hpcscale: " + PROTECTED, scheduler.reasonShown("7.hc"));
        assertEquals(1, reasonCommands("7.hc"), "shown once, not at every cycle");
        assertNull(scheduler.reasonShown("8.hc"), "a job queued seconds ago is about to start on a node up");

        clock.advance(Duration.ofMinutes(1));
        cycle();
        assertEquals("hpcscale: " + PROTECTED, scheduler.reasonShown("8.hc"), "past its first minute");

        scalerSays(WaitReasonsDocument.none("hc"));
        cycle();
        assertNull(scheduler.reasonShown("7.hc"), "taken back once the pool starts nodes again");
        assertNull(scheduler.reasonShown("8.hc"));
    }

    @Test
    void aJobsOwnReasonIsShownAtOnceAndTakenBackWhenItStarts() throws Exception {
        queued("9.gpu", "gpu", clock.instant());
        scalerSays(new WaitReasonsDocument("gpu", null, Map.of("9.gpu", "pool gpu cannot run it: it asks for 8 "
                + "GPUs and the pool's nodes have 4")));
        cycle();
        assertEquals("hpcscale: pool gpu cannot run it: it asks for 8 GPUs and the pool's nodes have 4",
                scheduler.reasonShown("9.gpu"));

        scheduler.putJob(new SchedulerJob("9.gpu", List.of("gpu"), JobState.Running,
                List.of(new Chunk(1, 4, 1024, 0)), 1, Placement.free, false, clock.instant(), List.of("gpu-1")));
        scheduler.putNode(FakeSchedulerAdapter.withJobs(FakeSchedulerAdapter.freeNode("gpu-1", "gpu", 4),
                List.of("9.gpu")));
        cycle();
        assertNull(scheduler.reasonShown("9.gpu"), "a running job keeps no reason in the accounting");
    }

    @Test
    void aPoolOfManyQueuedJobsIsToldOverSeveralCyclesNotInABurst() throws Exception {
        for (int i = 0; i < 120; i++) {
            queued(i + ".hc", "hc", clock.instant().minus(Duration.ofHours(1)));
        }
        scalerSays(new WaitReasonsDocument("hc", PROTECTED, Map.of()));
        cycle();
        assertEquals(WaitReasonsShown.PER_CYCLE, scheduler.commands().size());
        cycle();
        cycle();
        assertEquals(120, scheduler.commands().size(), "the rest over the next cycles, each job once");
    }

    @Test
    void aRefusedCommandEndsTheCyclesCommandsInOneLineAndItsJobIsTriedAgainTenMinutesLater() throws Exception {
        for (int i = 1; i <= 3; i++) {
            queued(i + ".hc", "hc", clock.instant().minus(Duration.ofMinutes(5)));
        }
        scalerSays(new WaitReasonsDocument("hc", PROTECTED, Map.of()));
        scheduler.failCommands("scontrol: error: Access/permission denied");
        CycleReport refused = cycle();
        assertEquals(List.of("showing job 1.hc why it waits failed: scontrol: error: Access/permission denied; 2 more "
                + "jobs are told at the next cycles"), refused.problems());
        assertEquals(1, scheduler.commands().size(), "the scheduler refuses them all: one command, not three");
        scheduler.failCommands(null);
        cycle();
        assertNull(scheduler.reasonShown("1.hc"), "waits its ten minutes");
        assertEquals("hpcscale: " + PROTECTED, scheduler.reasonShown("2.hc"));
        clock.advance(Duration.ofMinutes(10));
        cycle();
        assertEquals("hpcscale: " + PROTECTED, scheduler.reasonShown("1.hc"));
    }

    @Test
    void aCommentSomeoneElseWroteIsNeitherWrittenOverNorCleared() throws Exception {
        queued("7.hc", "hc", clock.instant().minus(Duration.ofMinutes(5)));
        scheduler.comment("7.hc", "moved to the new project's account, ask Ana");
        scalerSays(new WaitReasonsDocument("hc", PROTECTED, Map.of()));
        cycle();
        scalerSays(WaitReasonsDocument.none("hc"));
        cycle();
        assertEquals("moved to the new project's account, ask Ana", scheduler.reasonShown("7.hc"));
        assertTrue(scheduler.commands().isEmpty(), scheduler.commands().toString());
    }

    @Test
    void aRestartedAgentTakesBackAReasonItsPredecessorShowedOnceItNoLongerHolds() throws Exception {
        queued("7.hc", "hc", clock.instant().minus(Duration.ofMinutes(5)));
        scalerSays(new WaitReasonsDocument("hc", PROTECTED, Map.of()));
        cycle();
        assertEquals("hpcscale: " + PROTECTED, scheduler.reasonShown("7.hc"));

        agent = new Agent(scheduler, documents, pools, "head", "test");
        scalerSays(WaitReasonsDocument.none("hc"));
        cycle();
        assertNull(scheduler.reasonShown("7.hc"), "the reason the read shows was known as hpcscale's");
    }

    @Test
    void aJobThatAnotherOfItsPoolsCanServeShowsNothing() throws Exception {
        PoolMap both = new PoolMap(Map.of("hc", "hc", "gpu", "gpu"), Map.of()).withMultiQueueRule(
                PoolMap.MultiQueueRule.EVERY);
        agent = new Agent(scheduler, documents, both, "head", "test");
        scheduler.putJob(new SchedulerJob("5.x", List.of("hc", "gpu"), JobState.Queued,
                List.of(new Chunk(1, 4, 1024, 0)), 1, Placement.free, false, clock.instant().minusSeconds(600)));
        queued("6.hc", "hc", clock.instant().minusSeconds(600));
        scalerSays(new WaitReasonsDocument("hc", PROTECTED, Map.of()));
        cycle();
        assertEquals("hpcscale: " + PROTECTED, scheduler.reasonShown("6.hc"), "the reason was read");
        assertNull(scheduler.reasonShown("5.x"), "pool gpu may still start a node for it");
    }
}
