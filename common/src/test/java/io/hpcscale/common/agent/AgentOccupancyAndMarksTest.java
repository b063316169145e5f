package io.hpcscale.common.agent;

import static io.hpcscale.common.agent.FakeSchedulerAdapter.freeNode;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withDown;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withJobs;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withMark;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.ForwardingClusterLoadStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Which jobs hold a node and whose mark an offline node carries, as a real PBS server shows them
 * (../shared/notes/pbs-as-it-really-behaves.md): a suspended job missing from its node's listing, a node down after a
 * restart, comments dropped by a restart.
 */
class AgentOccupancyAndMarksTest {
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-22T10:00:00Z"));
    private final DocumentStore documents = new DocumentStore(new InMemoryClusterLoadStore(clock));
    private final FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
    private final PoolMap pools = new PoolMap(Map.of("batch", "batch"), Map.of());

    private Agent agent = new Agent(scheduler, documents, pools, "head", "test");

    private CycleReport cycle() throws InterruptedException {
        clock.advance(Duration.ofSeconds(120));
        return agent.runOnce(clock.instant());
    }

    private VmDocument vm(String name) {
        return documents.read(new DocumentKey("batch", name), VmDocument.class).orElseThrow().document();
    }

    private static SchedulerJob job(String id, String queue, JobState state, List<String> hosts) {
        return new SchedulerJob(id, List.of(queue), state, List.of(new Chunk(1, 4, 1024, 0)), 1, Placement.free,
                false, Instant.parse("2026-11-22T09:00:00Z"), hosts);
    }

    private void requestDrain(String node) {
        documents.upsert(List.of(DrainDocument.request("batch", node, "idle 5m", clock.instant())));
        documents.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
    }

    private void withdrawDrain(String node) {
        documents.delete(List.of(new DocumentKey("batch", DrainDocument.idFor(node))));
        documents.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
    }

    @Test
    void aJobWhoseRecordNamesTheNodeHoldsItThoughTheNodeListsNoJob() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        scheduler.putJob(job("9.s", "batch", JobState.Running, List.of("n1")));
        cycle();
        VmDocument vm = vm("n1");
        assertEquals(NodeJobStatus.Busy, vm.jobStatus());
        assertEquals(List.of("9.s"), vm.jobIds());
        assertFalse(vm.idle());
    }

    @Test
    void aJobOfAQueueNoPoolServesStillHoldsItsNode() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        scheduler.putJob(job("7.s", "admin", JobState.Running, List.of("N1.cluster.local")));
        cycle();
        assertEquals(List.of("7.s"), vm("n1").jobIds(), "matched without case or domain, as node names are");
    }

    @Test
    void aNodeTheSchedulerCannotReachRunsNoIdleClockAndStartsAFreshOneWhenBack() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        cycle();
        Instant idleSince = vm("n1").lastBusyAt();
        scheduler.putNode(withDown(scheduler.node("n1"), true));
        cycle();
        cycle();
        assertEquals(idleSince, vm("n1").lastBusyAt(), "its document keeps the time it had while it is down");
        scheduler.putNode(withDown(scheduler.node("n1"), false));
        cycle();
        assertEquals(clock.instant(), vm("n1").lastBusyAt(), "the idle clock starts when it reports again");
    }

    @Test
    void anExclusivelyHeldNodeSaysSo() throws Exception {
        SchedulerNode node = freeNode("n1", "batch", 16);
        scheduler.putNode(new SchedulerNode(node.name(), node.queues(), NodeJobStatus.Busy, "job-exclusive",
                OfflineMark.NONE, false, true, 16, 1, node.memoryMb(), 0, 0, 0, List.of("5.s"), null));
        cycle();
        assertTrue(vm("n1").exclusive());
    }

    @Test
    void aDrainedNodeWhoseCommentARestartDroppedStaysHpcscalesAndIsMarkedAgain() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        requestDrain("n1");
        cycle();
        assertTrue(vm("n1").offlineByHpcscale());
        scheduler.putNode(withMark(scheduler.node("n1"), OfflineMark.UNMARKED));
        agent = new Agent(scheduler, documents, pools, "head", "test");
        CycleReport report = cycle();
        assertEquals(List.of("n1"), report.takenOffline(), "hpcscale's mark is written again");
        assertTrue(vm("n1").offlineByHpcscale());
    }

    @Test
    void drainsOfOneCycleEachKeepTheirRecordOfIntentWhenTheOfflineCommandsFail() throws Exception {
        for (String node : List.of("n1", "n2", "n3")) {
            scheduler.putNode(freeNode(node, "batch", 16));
        }
        cycle();
        Instant requested = clock.instant();
        for (String node : List.of("n1", "n2", "n3")) {
            documents.upsert(List.of(DrainDocument.request("batch", node, "idle 5m", requested)));
        }
        documents.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, requested)));
        scheduler.failCommands("pbsnodes: cannot connect to server");
        CycleReport failed = cycle();
        assertTrue(failed.takenOffline().isEmpty());
        for (String node : List.of("n1", "n2", "n3")) {
            assertEquals(requested, vm(node).drainRequestedAt(), node + "'s record of the intent is in the store");
            assertFalse(vm(node).offline());
        }
        scheduler.failCommands(null);
        assertEquals(List.of("n1", "n2", "n3"), cycle().takenOffline().stream().sorted().toList());
        for (String node : List.of("n1", "n2", "n3")) {
            assertTrue(vm(node).offlineByHpcscale(), node);
        }
    }

    @Test
    void aMarkLostWhileTheAgentCouldNotWriteTheOfflineStateIsStillHpcscales() throws Exception {
        InMemoryClusterLoadStore memory = new InMemoryClusterLoadStore(clock);
        boolean[] failWrites = new boolean[1];
        DocumentStore failing = new DocumentStore(new ForwardingClusterLoadStore(memory) {
            private int writes;

            @Override
            public void upsertAll(Collection<ObjectNode> documents) {
                // The record of the intent goes through; the cycle's write after the offline does not.
                if (failWrites[0] && ++writes > 1) {
                    throw new StoreException("simulated store unreachable");
                }
                super.upsertAll(documents);
            }
        });
        Agent first = new Agent(scheduler, failing, pools, "head", "test");
        scheduler.putNode(freeNode("n1", "batch", 16));
        clock.advance(Duration.ofSeconds(120));
        first.runOnce(clock.instant());
        failing.upsert(List.of(DrainDocument.request("batch", "n1", "idle 5m", clock.instant()),
                new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
        failWrites[0] = true;
        clock.advance(Duration.ofSeconds(120));
        CycleReport killed = first.runOnce(clock.instant());
        assertFalse(killed.succeeded(), "the write after the offline failed");
        assertTrue(scheduler.node("n1").offlineByHpcscale());

        failWrites[0] = false;
        scheduler.putNode(withMark(scheduler.node("n1"), OfflineMark.UNMARKED));
        Agent restarted = new Agent(scheduler, failing, pools, "head", "test");
        clock.advance(Duration.ofSeconds(120));
        CycleReport report = restarted.runOnce(clock.instant());
        assertEquals(List.of("n1"), report.takenOffline(), "the echo written before pbsnodes -o is the evidence");
        VmDocument vm = failing.read(new DocumentKey("batch", "n1"), VmDocument.class).orElseThrow().document();
        assertTrue(vm.offlineByHpcscale());
    }

    @Test
    void aNodeWhoseCommentARestartDroppedIsReturnedOnceItsDrainIsWithdrawn() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        requestDrain("n1");
        cycle();
        scheduler.putNode(withMark(scheduler.node("n1"), OfflineMark.UNMARKED));
        withdrawDrain("n1");
        assertEquals(List.of("n1"), cycle().broughtBack());
        assertFalse(vm("n1").offline());
    }

    @Test
    void anAdministratorsMarkThatLostItsCommentStaysTheAdministrators() throws Exception {
        scheduler.putNode(withMark(freeNode("n1", "batch", 16), OfflineMark.OTHER));
        cycle();
        scheduler.putNode(withMark(scheduler.node("n1"), OfflineMark.UNMARKED));
        requestDrain("n1");
        cycle();
        withdrawDrain("n1");
        cycle();
        assertEquals(List.of(), scheduler.commands());
        assertTrue(vm("n1").heldByAdministrator());
    }

    /**
     * The soak's seed 1424: an administrator takes over a node hpcscale had drained; the agent reads the
     * administrator's mark but the store is down, so the store still says hpcscale's; a server restart then drops the
     * comment. What the agent read outranks the store's older evidence.
     */
    @Test
    void anAdministratorsMarkReadButNeverRecordedStaysTheAdministratorsWhenARestartDropsIt() throws Exception {
        boolean[] storeDown = new boolean[1];
        DocumentStore flaky = new DocumentStore(new ForwardingClusterLoadStore(new InMemoryClusterLoadStore(clock)) {
            @Override
            public void upsertAll(Collection<ObjectNode> documents) {
                if (storeDown[0]) {
                    throw new StoreException("simulated store unreachable");
                }
                super.upsertAll(documents);
            }
        });
        Agent head = new Agent(scheduler, flaky, pools, "head", "test");
        scheduler.putNode(freeNode("n1", "batch", 16));
        flaky.upsert(List.of(DrainDocument.request("batch", "n1", "idle 5m", clock.instant()),
                new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
        clock.advance(Duration.ofSeconds(120));
        head.runOnce(clock.instant());
        assertTrue(flaky.read(new DocumentKey("batch", "n1"), VmDocument.class).orElseThrow().document()
                .offlineByHpcscale(), "drained by hpcscale");

        scheduler.putNode(withMark(scheduler.node("n1"), OfflineMark.OTHER));
        storeDown[0] = true;
        clock.advance(Duration.ofSeconds(120));
        assertFalse(head.runOnce(clock.instant()).succeeded(), "the administrator's mark was read, not recorded");
        storeDown[0] = false;
        scheduler.putNode(withMark(scheduler.node("n1"), OfflineMark.UNMARKED));
        int commands = scheduler.commands().size();
        clock.advance(Duration.ofSeconds(120));
        CycleReport report = head.runOnce(clock.instant());

        assertEquals(List.of(), report.takenOffline(), "not marked again as hpcscale's");
        assertEquals(commands, scheduler.commands().size(), "no command on the administrator's node");
        assertTrue(flaky.read(new DocumentKey("batch", "n1"), VmDocument.class).orElseThrow().document()
                .heldByAdministrator());
    }

    /**
     * The soak's seed 1394: an administrator takes over a node hpcscale had drained, and later returns it to service
     * while the drain request still stands, so the agent takes it offline again. The store then holds the
     * administrator's document echoing that request; it is no evidence of hpcscale's mark, so the echo of the node in
     * service is written before {@code pbsnodes -o}. Here the read after the offline fails, so the offline state is
     * never recorded, and a server restart drops the comment: the node must still be hpcscale's, or its instance,
     * whose boot failed, would be left running for good.
     */
    @Test
    void aNodeTakenOfflineAgainAfterAnAdministratorsHoldStaysHpcscalesWhenARestartDropsTheMark() throws Exception {
        boolean[] failAfterOffline = new boolean[1];
        SchedulerAdapter failsAfterOffline = new SchedulerAdapter() {
            private boolean failNextRead;

            @Override
            public String scheduler() {
                return scheduler.scheduler();
            }

            @Override
            public SchedulerSnapshot read() throws SchedulerReadException {
                if (failNextRead) {
                    failNextRead = false;
                    throw new SchedulerReadException("simulated server busy");
                }
                return scheduler.read();
            }

            @Override
            public void offline(String node, String reason) throws SchedulerCommandException {
                scheduler.offline(node, reason);
                failNextRead = failAfterOffline[0];
            }

            @Override
            public void bringBack(String node) throws SchedulerCommandException {
                scheduler.bringBack(node);
            }

            @Override
            public boolean requeue(String jobId) throws SchedulerCommandException {
                return scheduler.requeue(jobId);
            }

            @Override
            public void showWaitReason(String jobId, String reason) throws SchedulerCommandException {
                scheduler.showWaitReason(jobId, reason);
            }

            @Override
            public Duration waitReasonLasts() {
                return scheduler.waitReasonLasts();
            }
        };
        agent = new Agent(failsAfterOffline, documents, pools, "head", "test");
        scheduler.putNode(freeNode("n1", "batch", 16));
        requestDrain("n1");
        assertTrue(cycle().succeeded());
        scheduler.putNode(withMark(scheduler.node("n1"), OfflineMark.OTHER));
        assertTrue(cycle().succeeded());
        assertTrue(vm("n1").heldByAdministrator());

        scheduler.putNode(withMark(scheduler.node("n1"), OfflineMark.NONE));
        failAfterOffline[0] = true;
        assertFalse(cycle().succeeded(), "taken offline again, then the read after it failed");
        assertTrue(scheduler.node("n1").offlineByHpcscale());
        failAfterOffline[0] = false;
        scheduler.putNode(withMark(scheduler.node("n1"), OfflineMark.UNMARKED));
        agent = new Agent(failsAfterOffline, documents, pools, "head", "test");

        assertEquals(List.of("n1"), cycle().takenOffline(), "the echo written before pbsnodes -o is the evidence");
        assertTrue(vm("n1").offlineByHpcscale());
    }

    @Test
    void anUnmarkedOfflineNodeWithNoEvidenceIsNeverTakenForHpcscales() throws Exception {
        scheduler.putNode(withMark(freeNode("n1", "batch", 16), OfflineMark.UNMARKED));
        cycle();
        cycle();
        assertEquals(List.of(), scheduler.commands());
        assertTrue(vm("n1").heldByAdministrator());
    }

    @Test
    void aNodeDownWithANodeWhoseMarkWasLostIsMarkedAgainOnlyOnceItReportsIn() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        requestDrain("n1");
        cycle();
        scheduler.putNode(withDown(withMark(withJobs(scheduler.node("n1"), List.of()), OfflineMark.UNMARKED), true));
        assertEquals(List.of(), cycle().takenOffline(), "nothing is written on a node that cannot be reached");
        assertTrue(vm("n1").offlineByHpcscale());
        scheduler.putNode(withDown(scheduler.node("n1"), false));
        assertEquals(List.of("n1"), cycle().takenOffline());
    }
}
