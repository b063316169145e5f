package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import ch.qos.logback.classic.Level;
import io.hpcscale.common.logging.CapturedLog;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class DocumentMapperTest {
    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private final PoolMap pools = new PoolMap(Map.of("batch", "batch"), Map.of("gpu", Pattern.compile("gpu\\d+")));
    private final DocumentMapper mapper = new DocumentMapper(pools, "agent-head-fake");

    private static SchedulerNode node(String name, NodeJobStatus status, List<String> jobIds, Instant lastUsedAt) {
        return new SchedulerNode(name, List.of("batch"), status, "state", OfflineMark.NONE, false, false, 16, 0,
                65536, 0, 0, 0, jobIds, lastUsedAt);
    }

    private static SchedulerNode free(String name, Instant lastUsedAt) {
        return node(name, NodeJobStatus.Free, List.of(), lastUsedAt);
    }

    private static SchedulerJob job(String id, List<String> queues) {
        return new SchedulerJob(id, queues, JobState.Queued, List.of(new Chunk(1, 4, 1024, 0)), 1, Placement.free,
                false, NOW);
    }

    private VmDocument map(SchedulerNode node, VmDocument previous) {
        return map(node, previous, Map.of());
    }

    private VmDocument map(SchedulerNode node, VmDocument previous, Map<String, DrainDocument> drains) {
        DesiredDocuments desired = mapper.map(SchedulerSnapshot.of(List.of(), List.of(node)), drains,
                previous == null ? Map.of() : Map.of(previous.name(), previous), NOW);
        return desired.vms().get(new DocumentKey("batch", node.name()));
    }

    /** The document the agent wrote for this node at an earlier read. */
    private static VmDocument previous(String name, NodeJobStatus status, Instant lastBusyAt) {
        return new VmDocument(name, "batch", name, status, "state", false, false, false, false, 16, 0, 65536, 0, 0, 0,
                List.of(), lastBusyAt, NOW.minusSeconds(120), null, "agent-head-fake");
    }

    @Test
    void aNewNodeIsIdleSinceTheSchedulerLastSawAJobOnIt() {
        Instant lastUsed = NOW.minus(Duration.ofHours(3));
        assertEquals(lastUsed, map(free("n1", lastUsed), null).lastBusyAt(), "an agent restarted on an idle "
                + "cluster does not make idle nodes look freshly busy");
        assertEquals(NOW, map(free("n1", null), null).lastBusyAt(), "no history: its idle clock starts now");
    }

    @Test
    void aLastUseInTheFutureIsNotBelieved() {
        Instant skewed = NOW.plus(Duration.ofMinutes(5));
        assertEquals(NOW, map(free("n1", skewed), null).lastBusyAt());
        Instant idleSince = NOW.minus(Duration.ofMinutes(30));
        assertEquals(idleSince, map(free("n1", skewed), previous("n1", NodeJobStatus.Free, idleSince)).lastBusyAt(),
                "a skewed clock on the node must not reset its idle time");
    }

    @Test
    void aJobThatCameAndWentBetweenTwoReadsRestartsTheIdleClock() {
        Instant idleSince = NOW.minus(Duration.ofMinutes(30));
        Instant shortJobEnded = NOW.minus(Duration.ofMinutes(1));
        assertEquals(shortJobEnded, map(free("n1", shortJobEnded), previous("n1", NodeJobStatus.Free, idleSince))
                .lastBusyAt());
        assertEquals(idleSince, map(free("n1", idleSince.minusSeconds(60)), previous("n1", NodeJobStatus.Free,
                idleSince)).lastBusyAt(), "an older last use does not move the idle clock back");
    }

    @Test
    void aNodeThatTurnsFreeIsIdleFromThisRead() {
        Instant busySince = NOW.minus(Duration.ofHours(2));
        assertEquals(NOW, map(free("n1", null), previous("n1", NodeJobStatus.Busy, busySince)).lastBusyAt());
    }

    @Test
    void aNodeListingAJobIsBusyWhateverItsStateSays() {
        VmDocument vm = map(node("n1", NodeJobStatus.Free, List.of("7.s"), null), null);
        assertEquals(NodeJobStatus.Busy, vm.jobStatus());
        assertEquals(List.of("7.s"), vm.jobIds());
    }

    @Test
    void echoesTheDrainRequestItReadBeforeTheScheduler() {
        Instant requestedAt = NOW.minusSeconds(90);
        DrainDocument drain = DrainDocument.request("batch", "n1", "idle", requestedAt);
        assertEquals(requestedAt, map(free("n1", null), null, Map.of("n1", drain)).drainRequestedAt());
        assertNull(map(free("n1", null), null).drainRequestedAt());
    }

    @Test
    void saysOnceWhichQueueNoPoolServesAndAgainIfItComesBack() {
        try (CapturedLog log = new CapturedLog(DocumentMapper.class)) {
            SchedulerSnapshot unmapped = SchedulerSnapshot.of(List.of(job("1.s", List.of("debug", "long")),
                    job("2.s", List.of("debug", "long")), job("3.s", List.of("batch"))), List.of());
            assertEquals(1, mapper.map(unmapped, Map.of(), Map.of(), NOW).jobs().size());
            mapper.map(unmapped, Map.of(), Map.of(), NOW);
            assertEquals(List.of("jobs in queues 'debug,long' are not scaled for: no pool serves it (set "
                    + "pool.<name>.queue or pool.<name>.partition to it if one should)"), log.at(Level.INFO));

            mapper.map(SchedulerSnapshot.of(List.of(), List.of()), Map.of(), Map.of(), NOW);
            mapper.map(SchedulerSnapshot.of(List.of(job("5.s", List.of("debug", "long")), job("6.s", List.of("debug"))),
                    List.of()), Map.of(), Map.of(), NOW);
            assertEquals(List.of(log.at(Level.INFO).get(0), log.at(Level.INFO).get(0), "jobs in queue 'debug' are not "
                    + "scaled for: no pool serves it (set pool.<name>.queue or pool.<name>.partition to it if one "
                    + "should)"), log.at(Level.INFO));
        }
    }
}
