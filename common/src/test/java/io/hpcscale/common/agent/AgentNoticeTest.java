package io.hpcscale.common.agent;

import static io.hpcscale.common.agent.FakeSchedulerAdapter.freeNode;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withJobs;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withOffline;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the agent does with a node's notice of a Scheduled Event ({@link NoticeDocument}). */
class AgentNoticeTest {
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-27T10:00:00Z"));
    private final DocumentStore documents = new DocumentStore(new InMemoryClusterLoadStore(clock));
    private final FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
    private final Agent agent = new Agent(scheduler, documents, new PoolMap(Map.of("spot", "spot"), Map.of()),
            "head", "test");

    private void cycle() throws InterruptedException {
        clock.advance(Duration.ofSeconds(10));
        agent.runOnce(clock.instant());
    }

    private void busyNodeRunning(String node, String job) {
        scheduler.putJob(new SchedulerJob(job, List.of("spot"), JobState.Running, List.of(new Chunk(1, 4, 1024, 0)),
                1, Placement.free, false, clock.instant(), List.of(node)));
        scheduler.putNode(withJobs(freeNode(node, "spot", 4), List.of(job)));
    }

    /** As the node's service writes it: the notice, then the marker the agent watches. */
    private void notice(String node, String type) {
        documents.upsert(List.of(NoticeDocument.of(node, "EV-" + type, type,
                clock.instant().plusSeconds(30), "", clock.instant())));
        documents.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
    }

    private void withdrawNotice(String node) {
        documents.delete(List.of(NoticeDocument.keyFor(node)));
        documents.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
    }

    private NoticeDocument stored(String node) {
        return documents.read(NoticeDocument.keyFor(node), NoticeDocument.class).orElseThrow().document();
    }

    private long requeues(String job) {
        return scheduler.commands().stream().filter(c -> c.equals("requeue " + job)).count();
    }

    @Test
    void aPreemptTakesTheNodeOutOfServiceAndRequeuesItsJobOnce() throws Exception {
        busyNodeRunning("spot-1", "12.pbs");
        cycle();
        notice("spot-1", "Preempt");
        cycle();
        cycle();
        assertTrue(scheduler.node("spot-1").offlineByHpcscale(), "no new job may land on it");
        assertTrue(scheduler.commands().stream().anyMatch(c -> c.startsWith("offline spot-1 hpcscale: Azure Preempt")),
                scheduler.commands().toString());
        assertEquals(1, requeues("12.pbs"), "put back once, not every cycle");
        assertEquals(JobState.Queued, scheduler.read().jobs().get(0).state());
        assertNull(stored("spot-1").readyAt(), "a Preempt is never acknowledged: the eviction comes when it comes");
        int offline = scheduler.commands().indexOf(scheduler.commands().stream()
                .filter(c -> c.startsWith("offline")).findFirst().orElseThrow());
        assertTrue(offline < scheduler.commands().indexOf("requeue 12.pbs"),
                "offline first, so the scheduler cannot put the job straight back on the node");
    }

    @Test
    void noJobIsRequeuedWhileItsNodeCouldNotBeTakenOutOfService() throws Exception {
        busyNodeRunning("spot-9", "16.pbs");
        cycle();
        scheduler.failCommands("pbsnodes -o hung and was killed");
        notice("spot-9", "Preempt");
        cycle();
        assertEquals(0, requeues("16.pbs"), "requeued now, it could start again on the node that goes");
        scheduler.failCommands(null);
        cycle();
        assertTrue(scheduler.node("spot-9").offlineByHpcscale());
        assertEquals(1, requeues("16.pbs"), "out of service now: requeued");
    }

    @Test
    void aTerminateIsMarkedReadyOnlyOnceTheNodeRunsNoJob() throws Exception {
        scheduler.putNode(freeNode("spot-2", "spot", 4));
        scheduler.putJob(new SchedulerJob("13.pbs", List.of("spot"), JobState.Running,
                List.of(new Chunk(1, 4, 1024, 0)), 1, Placement.free, false, clock.instant(), List.of("spot-2")));
        cycle();
        notice("spot-2", "Reboot");
        cycle();
        assertTrue(scheduler.node("spot-2").offlineByHpcscale());
        assertEquals(0, requeues("13.pbs"), "a reboot lets the job run on until it ends");
        assertNull(stored("spot-2").readyAt(), "the job's record still names the node");
        scheduler.removeJob("13.pbs");
        cycle();
        assertNotNull(stored("spot-2").readyAt(), "empty now: the node may let its reboot go ahead");

        busyNodeRunning("spot-3", "14.pbs");
        cycle();
        notice("spot-3", "Terminate");
        cycle();
        assertEquals(1, requeues("14.pbs"));
        assertNotNull(stored("spot-3").readyAt(), "requeued and out of service: the deletion may go ahead");
    }

    @Test
    void theNodeComesBackOnceItsNoticeIsGone() throws Exception {
        scheduler.putNode(freeNode("spot-4", "spot", 4));
        cycle();
        notice("spot-4", "Freeze");
        cycle();
        assertTrue(scheduler.node("spot-4").offlineByHpcscale());
        withdrawNotice("spot-4");
        cycle();
        assertFalse(scheduler.node("spot-4").isOffline(), "the freeze is over");
    }

    @Test
    void aScalersDrainKeepsItsHandshakeWhileANoticeStands() throws Exception {
        scheduler.putNode(freeNode("spot-5", "spot", 4));
        cycle();
        notice("spot-5", "Preempt");
        Instant asked = clock.instant().minusSeconds(5);
        documents.upsert(List.of(DrainDocument.request("spot", "spot-5", "idle 5m", asked)));
        cycle();
        cycle();
        VmDocument vm = documents.read(new DocumentKey("spot", "spot-5"), VmDocument.class).orElseThrow()
                .document();
        assertEquals(asked, vm.drainRequestedAt(), "the scaler's request is the one echoed, so it can stop the node");
        documents.delete(List.of(new DocumentKey("spot", DrainDocument.idFor("spot-5"))));
        documents.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
        cycle();
        assertTrue(scheduler.node("spot-5").offlineByHpcscale(), "the scaler withdrew its drain, the notice stands");
    }

    @Test
    void aNodeAnAdministratorHoldsHasItsJobsRequeuedButIsNeverMarkedReady() throws Exception {
        busyNodeRunning("spot-6", "15.pbs");
        scheduler.putNode(withOffline(scheduler.node("spot-6"), true, false));
        cycle();
        notice("spot-6", "Terminate");
        cycle();
        assertEquals(1, requeues("15.pbs"));
        assertNull(stored("spot-6").readyAt(), "the administrator's node: hpcscale does not speak for it");
    }

    @Test
    void aNoticeTheNodeRewroteMeanwhileIsNotOverwritten() throws Exception {
        scheduler.putNode(freeNode("spot-7", "spot", 4));
        cycle();
        notice("spot-7", "Reboot");
        NoticeDocument newer = NoticeDocument.of("spot-7", "EV-2", "Redeploy", clock.instant().plusSeconds(600), "",
                clock.instant());
        cycleWithWriteBetweenReadAndMark(newer);
        assertEquals("EV-2", stored("spot-7").eventId());
        assertNull(stored("spot-7").readyAt(), "readiness for the old event must not reach the new one");
    }

    /** A cycle in which the node writes a new notice after the agent read the old one. */
    private void cycleWithWriteBetweenReadAndMark(NoticeDocument newer) throws InterruptedException {
        FakeSchedulerAdapter racing = scheduler;
        Agent racer = new Agent(new SchedulerAdapter() {
            @Override
            public String scheduler() {
                return racing.scheduler();
            }

            @Override
            public SchedulerSnapshot read() throws SchedulerReadException {
                SchedulerSnapshot snapshot = racing.read();
                documents.upsert(List.of(newer));
                return snapshot;
            }

            @Override
            public void offline(String node, String reason) throws SchedulerCommandException {
                racing.offline(node, reason);
            }

            @Override
            public void bringBack(String node) throws SchedulerCommandException {
                racing.bringBack(node);
            }

            @Override
            public boolean requeue(String jobId) throws SchedulerCommandException {
                return racing.requeue(jobId);
            }

            @Override
            public void showWaitReason(String jobId, String reason) throws SchedulerCommandException {
                racing.showWaitReason(jobId, reason);
            }

            @Override
            public Duration waitReasonLasts() {
                return racing.waitReasonLasts();
            }
        }, documents, new PoolMap(Map.of("spot", "spot"), Map.of()), "head2", "test");
        clock.advance(Duration.ofSeconds(10));
        racer.runOnce(clock.instant());
    }
}
