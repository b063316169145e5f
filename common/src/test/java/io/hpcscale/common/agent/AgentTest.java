package io.hpcscale.common.agent;

import static io.hpcscale.common.agent.FakeSchedulerAdapter.freeNode;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withDown;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withJobs;
import static io.hpcscale.common.agent.FakeSchedulerAdapter.withOffline;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.common.logging.CapturedLog;
import io.hpcscale.common.logging.CapturedStderr;
import io.hpcscale.common.logging.LogFormat;
import io.hpcscale.common.logging.LogOutput;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.ForwardingClusterLoadStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.store.StoredDocument;
import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class AgentTest {
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-22T10:00:00Z"));
    private final InMemoryClusterLoadStore store = new InMemoryClusterLoadStore(clock);
    private final DocumentStore documents = new DocumentStore(store);
    private final FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
    private final PoolMap pools = new PoolMap(Map.of("batch", "batch", "gpuq", "gpu"),
            Map.of("gpu", Pattern.compile("gpu\\d+")));
    private final Agent agent = new Agent(scheduler, documents, pools, "head", "test");

    private static SchedulerJob job(String id, String queue, JobState state) {
        return new SchedulerJob(id, List.of(queue), state, List.of(new Chunk(1, 4, 1024, 0)), 1, Placement.free,
                false, Instant.parse("2026-11-22T09:00:00Z"));
    }

    private CycleReport cycle() throws InterruptedException {
        clock.advance(Duration.ofSeconds(120));
        return agent.runOnce(clock.instant());
    }

    private VmDocument vm(String pool, String name) {
        return documents.read(new DocumentKey(pool, name), VmDocument.class).orElseThrow().document();
    }

    private AgentDocument heartbeat() {
        return documents.read(new DocumentKey(ClusterLoadDocument.META_POOL, agent.id()), AgentDocument.class)
                .orElseThrow().document();
    }

    /** As the scaler asks for a drain: the request, then the marker the agents watch. */
    private void requestDrain(String pool, String node) {
        documents.upsert(List.of(DrainDocument.request(pool, node, "idle 5m", clock.instant())));
        drainsChanged();
    }

    private void withdrawDrain(String pool, String node) {
        documents.delete(List.of(new DocumentKey(pool, DrainDocument.idFor(node))));
        drainsChanged();
    }

    private void drainsChanged() {
        documents.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
    }

    @Test
    void writesTheJobsAndNodesOfMappedPools() throws Exception {
        scheduler.putJob(job("1.s", "batch", JobState.Queued)).putJob(job("2.s", "gpuq", JobState.Hold))
                .putJob(job("3.s", "other", JobState.Queued)).putJob(job("4.s", "batch", JobState.Finished))
                .putNode(freeNode("n1", "batch", 16)).putNode(freeNode("gpu7", "nowhere", 8))
                .putNode(freeNode("x1", "nowhere", 8));
        CycleReport report = cycle();
        assertTrue(report.succeeded());
        assertEquals(Set.of("batch/1.s", "gpu/2.s"), keys(DocumentType.JOBS));
        assertEquals(Set.of("batch/n1", "gpu/gpu7"), keys(DocumentType.VMS));
        JobDocument written = documents.read(new DocumentKey("batch", "1.s"), JobDocument.class).orElseThrow()
                .document();
        assertEquals("batch", written.queueName());
        assertEquals(agent.id(), written.agent());
        assertEquals("agent-head-fake", agent.id());
        assertEquals(List.of("batch", "gpu"), heartbeat().pools());
        assertNull(heartbeat().lastError());
    }

    @Test
    void aJobOfSeveralQueuesCountsForTheFirstPoolOrForEveryPoolAsConfigured() throws Exception {
        SchedulerJob multi = new SchedulerJob("11", List.of("other", "gpuq", "batch"), JobState.Queued,
                List.of(new Chunk(1, 2, 0, 0)), 1, Placement.pack, false, null);
        scheduler.putJob(multi);
        cycle();
        assertEquals(Set.of("gpu/11"), keys(DocumentType.JOBS));
        Agent every = new Agent(scheduler, documents, pools.withMultiQueueRule(PoolMap.MultiQueueRule.EVERY), "head",
                "test");
        clock.advance(Duration.ofSeconds(120));
        every.runOnce(clock.instant());
        assertEquals(Set.of("gpu/11", "batch/11"), keys(DocumentType.JOBS));
        assertEquals("batch", documents.read(new DocumentKey("batch", "11"), JobDocument.class).orElseThrow()
                .document().queueName());
    }

    @Test
    void writesOnlyTheHeartbeatWhenNothingChanged() throws Exception {
        scheduler.putJob(job("1.s", "batch", JobState.Queued)).putNode(freeNode("n1", "batch", 16));
        cycle();
        long before = store.documentsWritten();
        CycleReport second = cycle();
        assertEquals(0, second.written().size());
        assertEquals(1, store.documentsWritten() - before, "only the heartbeat");
        assertEquals(clock.instant(), heartbeat().lastCycleAt());
    }

    @Test
    void writesOnlyWhatChanged() throws Exception {
        scheduler.putJob(job("1.s", "batch", JobState.Queued)).putJob(job("2.s", "batch", JobState.Queued))
                .putNode(freeNode("n1", "batch", 16));
        cycle();
        scheduler.putJob(job("2.s", "batch", JobState.Running));
        CycleReport report = cycle();
        assertEquals(List.of(new DocumentKey("batch", "2.s")), report.written().stream()
                .map(ClusterLoadDocument::key).toList());
    }

    @Test
    void deletesTheDocumentOfAJobThatIsGone() throws Exception {
        scheduler.putJob(job("1.s", "batch", JobState.Queued)).putJob(job("2.s", "batch", JobState.Running));
        cycle();
        scheduler.removeJob("2.s");
        CycleReport report = cycle();
        assertEquals(List.of(new DocumentKey("batch", "2.s")), report.deleted());
        assertEquals(Set.of("batch/1.s"), keys(DocumentType.JOBS));
    }

    @Test
    void failedReadWritesOnlyTheHeartbeatWithTheErrorAndDeletesNothing() throws Exception {
        scheduler.putJob(job("1.s", "batch", JobState.Queued)).putNode(freeNode("n1", "batch", 16));
        cycle();
        Instant lastSuccess = clock.instant();
        scheduler.failReads("`qstat -f -t -F json` exited with status 2: cannot connect to server");
        long before = store.documentsWritten();
        CycleReport failed = cycle();
        assertFalse(failed.succeeded());
        assertEquals(1, store.documentsWritten() - before);
        assertEquals(0, store.documentsDeleted());
        assertEquals(Set.of("batch/1.s"), keys(DocumentType.JOBS));
        assertTrue(heartbeat().lastError().contains("cannot connect to server"));
        assertEquals(lastSuccess, heartbeat().lastSuccessAt());
        scheduler.failReads(null);
        cycle();
        assertNull(heartbeat().lastError());
        assertEquals(clock.instant(), heartbeat().lastSuccessAt());
    }

    @Test
    void keepsTheDocumentOfAJobThatCouldNotBeRead() throws Exception {
        scheduler.putJob(job("1.s", "batch", JobState.Queued)).putJob(job("2.s", "batch", JobState.Queued));
        cycle();
        scheduler.unreadableJobs(Set.of("2.s"));
        CycleReport report = cycle();
        assertTrue(report.deleted().isEmpty());
        assertEquals(Set.of("batch/1.s", "batch/2.s"), keys(DocumentType.JOBS));
        scheduler.unreadableJobs(Set.of()).removeJob("2.s");
        assertEquals(List.of(new DocumentKey("batch", "2.s")), cycle().deleted());
    }

    @Test
    void aRestartedAgentRewritesNothingThatIsAlreadyStored() throws Exception {
        scheduler.putJob(job("1.s", "batch", JobState.Queued)).putNode(freeNode("n1", "batch", 16));
        cycle();
        Agent restarted = new Agent(scheduler, documents, pools, "head", "test");
        scheduler.removeJob("1.s").putJob(job("5.s", "batch", JobState.Queued));
        clock.advance(Duration.ofSeconds(120));
        CycleReport report = restarted.runOnce(clock.instant());
        assertEquals(List.of(new DocumentKey("batch", "5.s")), report.written().stream()
                .map(ClusterLoadDocument::key).toList());
        assertEquals(List.of(new DocumentKey("batch", "1.s")), report.deleted());
    }

    @Test
    void aStoreThatIsDownFailsTheCycleAndTheNextOneCatchesUp() throws Exception {
        scheduler.putJob(job("1.s", "batch", JobState.Queued));
        cycle();
        store.setAvailable(false);
        scheduler.removeJob("1.s").putJob(job("2.s", "batch", JobState.Queued));
        CycleReport down = cycle();
        assertFalse(down.succeeded());
        assertTrue(down.error().startsWith("store: "), down.error());
        store.setAvailable(true);
        CycleReport back = cycle();
        assertTrue(back.succeeded());
        assertEquals(Set.of("batch/2.s"), keys(DocumentType.JOBS));
    }

    @Test
    void takesARequestedNodeOfflineAndReportsItWithTheRequestTime() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        cycle();
        requestDrain("batch", "n1");
        Instant requestedAt = clock.instant();
        int readsBefore = scheduler.reads();
        CycleReport report = cycle();
        assertEquals(List.of("n1"), report.takenOffline());
        assertEquals(List.of("offline n1 hpcscale: idle 5m"), scheduler.commands());
        VmDocument vm = vm("batch", "n1");
        assertTrue(vm.offline() && vm.offlineByHpcscale());
        assertEquals(requestedAt, vm.drainRequestedAt());
        assertEquals(readsBefore + 2, scheduler.reads(), "the node is read again after the offline command, in the same cycle");
    }

    @Test
    void aJobThatLandsBeforeTheOfflineIsReportedOnTheDrainedNode() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        cycle();
        requestDrain("batch", "n1");
        scheduler.putNode(withJobs(scheduler.node("n1"), List.of("9.s")));
        cycle();
        VmDocument vm = vm("batch", "n1");
        assertTrue(vm.offlineByHpcscale());
        assertEquals(NodeJobStatus.Busy, vm.jobStatus());
        assertEquals(List.of("9.s"), vm.jobIds());
    }

    @Test
    void returnsANodeWhenItsDrainIsCancelled() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        requestDrain("batch", "n1");
        cycle();
        withdrawDrain("batch", "n1");
        CycleReport report = cycle();
        assertEquals(List.of("n1"), report.broughtBack());
        VmDocument vm = vm("batch", "n1");
        assertFalse(vm.offline());
        assertNull(vm.drainRequestedAt());
    }

    @Test
    void waitsForAStoppedNodeToReportInBeforeReturningIt() throws Exception {
        scheduler.putNode(withDown(withOffline(freeNode("n1", "batch", 16), true, true), true));
        cycle();
        assertTrue(scheduler.commands().isEmpty());
        scheduler.putNode(withDown(scheduler.node("n1"), false));
        assertEquals(List.of("n1"), cycle().broughtBack());
    }

    @Test
    void neverTouchesANodeAnAdministratorTookOffline() throws Exception {
        scheduler.putNode(withOffline(freeNode("n1", "batch", 16), true, false));
        requestDrain("batch", "n1");
        cycle();
        withdrawDrain("batch", "n1");
        cycle();
        assertTrue(scheduler.commands().isEmpty(), scheduler.commands().toString());
    }

    @Test
    void aFailedDrainCommandIsReportedAndRetriedNextCycle() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        requestDrain("batch", "n1");
        scheduler.failCommands("pbsnodes: Unauthorized Request");
        CycleReport report = cycle();
        assertTrue(report.succeeded());
        assertTrue(heartbeat().lastError().contains("taking node n1 offline failed: pbsnodes: Unauthorized"));
        scheduler.failCommands(null);
        assertEquals(List.of("n1"), cycle().takenOffline());
    }

    @Test
    void aFreeNodeKeepsItsIdleClockAndABusyOneRestartsIt() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        cycle();
        Instant firstSeen = clock.instant();
        cycle();
        assertEquals(firstSeen, vm("batch", "n1").lastBusyAt());
        scheduler.putNode(withJobs(scheduler.node("n1"), List.of("1.s")));
        cycle();
        Instant busyFrom = clock.instant();
        cycle();
        assertEquals(busyFrom, vm("batch", "n1").lastBusyAt(), "unchanged while busy, so nothing is rewritten");
        scheduler.putNode(withJobs(scheduler.node("n1"), List.of()));
        cycle();
        assertEquals(clock.instant(), vm("batch", "n1").lastBusyAt());
        assertEquals(NodeJobStatus.Free, vm("batch", "n1").jobStatus());
    }

    @Test
    void deletesTheDocumentOfANodeThatIsGone() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16)).putNode(freeNode("n2", "batch", 16));
        cycle();
        scheduler.removeNode("n2");
        CycleReport report = cycle();
        assertEquals(List.of(new DocumentKey("batch", "n2")), report.deleted());
        assertEquals(Set.of("batch/n1"), keys(DocumentType.VMS), "the scaler must not plan for a node that is gone");
    }

    @Test
    void ignoresDrainRequestsForPoolsItDoesNotServe() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        requestDrain("elsewhere", "n1");
        CycleReport report = cycle();
        assertTrue(report.takenOffline().isEmpty());
        assertTrue(scheduler.commands().isEmpty(), "another cluster's node of the same name is not this one");
        assertNull(vm("batch", "n1").drainRequestedAt());
    }

    @Test
    void readsTheSchedulerOnceACycleUnlessItChangedANode() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        cycle();
        int before = scheduler.reads();
        cycle();
        assertEquals(before + 1, scheduler.reads());
        requestDrain("batch", "n1");
        scheduler.failCommands("pbsnodes: Unauthorized Request");
        cycle();
        assertEquals(before + 2, scheduler.reads(), "a command that failed changed nothing worth a second read");
    }

    /** Counts how often the agent reads its job and vm documents back from the store. */
    private static final class CountingReadBacks extends ForwardingClusterLoadStore {
        final List<DocumentType> queried = new ArrayList<>();

        CountingReadBacks(ClusterLoadStore delegate) {
            super(delegate);
        }

        @Override
        public List<StoredDocument> queryPool(String poolName, Set<DocumentType> types) {
            types.stream().filter(t -> t == DocumentType.JOBS || t == DocumentType.VMS).sorted()
                    .forEach(queried::add);
            return super.queryPool(poolName, types);
        }
    }

    @Test
    void readsItsDocumentsBackOnlyWhenItStartsAndOnceAnHour() throws Exception {
        CountingReadBacks counting = new CountingReadBacks(store);
        Agent counted = new Agent(scheduler, new DocumentStore(counting), pools, "head", "test");
        scheduler.putJob(job("1.s", "batch", JobState.Queued)).putNode(freeNode("n1", "batch", 16));
        Instant start = clock.instant();
        counted.runOnce(start);
        assertEquals(List.of(DocumentType.JOBS, DocumentType.VMS, DocumentType.JOBS, DocumentType.VMS),
                counting.queried, "each served pool's partition (batch, gpu) read once");
        for (int minutes = 2; minutes < 60; minutes += 2) {
            counted.runOnce(start.plus(Duration.ofMinutes(minutes)));
        }
        assertEquals(4, counting.queried.size(), "a cycle costs the store no read of every document");
        counted.runOnce(start.plus(Agent.RESYNC_INTERVAL));
        assertEquals(8, counting.queried.size());
    }

    @Test
    void rewritesADocumentRemovedBehindItsBackAtTheHourlyResync() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        Instant start = clock.instant();
        agent.runOnce(start);
        documents.delete(List.of(new DocumentKey("batch", "n1")));
        agent.runOnce(start.plus(Agent.RESYNC_INTERVAL).plus(Duration.ofMinutes(1)));
        assertEquals(Set.of("batch/n1"), keys(DocumentType.VMS));
    }

    @Test
    void aRestartedAgentThatCannotReadTheSchedulerStillReportsWhenItLastDid() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        cycle();
        Instant lastSuccess = clock.instant();
        scheduler.failReads("`qstat -f -t -F json` exited with status 2: cannot connect to server");
        Agent restarted = new Agent(scheduler, documents, pools, "head", "test");
        clock.advance(Duration.ofSeconds(120));
        restarted.runOnce(clock.instant());
        assertEquals(lastSuccess, heartbeat().lastSuccessAt());
        assertEquals(clock.instant(), heartbeat().lastCycleAt());
    }

    @Test
    void theHeartbeatSaysHowLongTheCycleTook() throws Exception {
        scheduler.putJob(job("1.s", "batch", JobState.Queued)).putNode(freeNode("n1", "batch", 16));
        long before = System.nanoTime();
        CycleReport report = cycle();
        long elapsedMillis = Duration.ofNanos(System.nanoTime() - before).toMillis();
        assertTrue(report.millis() >= 0 && report.millis() <= elapsedMillis, report.millis() + " ms");
        assertEquals(report.millis(), heartbeat().cycleMillis());
    }

    @Test
    void logsEachCycleAndWhatWentWrong() throws Exception {
        scheduler.putJob(job("1.s", "batch", JobState.Queued)).putNode(freeNode("n1", "batch", 16));
        try (CapturedLog log = new CapturedLog(Agent.class)) {
            CycleReport clean = cycle();
            assertEquals(List.of("cycle: read 1 jobs and 1 nodes; wrote 2 documents, deleted 0; store: 0 requests, "
                    + "0.0 RU; " + clean.millis() + " ms"), log.at(Level.INFO));

            log.clear();
            requestDrain("batch", "n1");
            scheduler.failCommands("pbsnodes: Unauthorized Request");
            CycleReport withProblem = cycle();
            assertEquals("cycle: read 1 jobs and 1 nodes; wrote 1 documents, deleted 0; store: 0 requests, 0.0 RU; "
                    + withProblem.millis() + " ms; problems: taking node n1 offline failed: pbsnodes: Unauthorized "
                    + "Request",
                    log.at(Level.INFO).get(0));

            log.clear();
            scheduler.failReads("`qstat` exited with status 2: cannot connect to server");
            cycle();
            assertTrue(log.at(Level.INFO).isEmpty(), log.at(Level.INFO).toString());
            assertEquals(List.of("cycle failed, nothing deleted, heartbeat carries the error: `qstat` exited with "
                    + "status 2: cannot connect to server; store: 0 requests, 0.0 RU"), log.at(Level.WARN));
        }
    }

    @Test
    void drainLinesCarryPoolNodeActionReasonAndOutcomeAsJsonFields() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        cycle();
        List<String> lines;
        LogOutput.use(LogFormat.JSON);
        try (CapturedStderr err = new CapturedStderr()) {
            requestDrain("batch", "n1");
            scheduler.failCommands("pbsnodes: Unauthorized Request");
            cycle();
            scheduler.failCommands(null);
            cycle();
            withdrawDrain("batch", "n1");
            cycle();
            lines = err.lines();
        } finally {
            LogOutput.use(LogFormat.TEXT);
        }
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> drains = new ArrayList<>();
        for (String line : lines) {
            JsonNode node = json.readTree(line);
            if (node.has("action")) {
                drains.add(node);
            }
        }
        assertEquals(3, drains.size(), lines.toString());
        assertDrainLine(drains.get(0), "WARN", "offline", "idle 5m", "failed: pbsnodes: Unauthorized Request",
                "pool=batch node=n1 taking it offline failed: pbsnodes: Unauthorized Request");
        assertDrainLine(drains.get(1), "INFO", "offline", "idle 5m", "ok",
                "pool=batch node=n1 taken out of service: idle 5m");
        assertDrainLine(drains.get(2), "INFO", "online", "hpcscale no longer drains it", "ok",
                "node=n1 returned to service: hpcscale no longer drains it");
    }

    private static void assertDrainLine(JsonNode line, String level, String action, String reason, String outcome,
            String message) {
        assertEquals(Agent.class.getName(), line.path("logger").asText(), line.toString());
        assertEquals(level, line.path("level").asText(), line.toString());
        assertEquals("batch", line.path("pool").asText(), line.toString());
        assertEquals("n1", line.path("node").asText(), line.toString());
        assertEquals(action, line.path("action").asText(), line.toString());
        assertEquals(reason, line.path("reason").asText(), line.toString());
        assertEquals(outcome, line.path("outcome").asText(), line.toString());
        assertEquals(message, line.path("message").asText(), line.toString());
    }

    private Set<String> keys(DocumentType type) {
        return Set.copyOf(store.queryByType(type).stream().map(d -> d.key().toString()).toList());
    }
}
