package io.hpcscale.common.agent;

import static io.hpcscale.common.agent.FakeSchedulerAdapter.freeNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** How the agent knows, cheaply and between full reads, that a full read is worth running now. */
class AgentQuickCheckTest {
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-22T10:00:00Z"));
    private final InMemoryClusterLoadStore store = new InMemoryClusterLoadStore(clock);
    private final DocumentStore documents = new DocumentStore(store);
    private final FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
    private final Agent agent = new Agent(scheduler, documents, new PoolMap(Map.of("batch", "batch"),
            Map.of()), "head", "test");

    private static SchedulerJob queued(String id) {
        return new SchedulerJob(id, List.of("batch"), JobState.Queued, List.of(new Chunk(1, 4, 1024, 0)), 1,
                Placement.free, false, Instant.parse("2026-11-22T09:00:00Z"));
    }

    private AgentDocument heartbeat() {
        return documents.read(new DocumentKey(ClusterLoadDocument.META_POOL, agent.id()), AgentDocument.class)
                .orElseThrow().document();
    }

    @Test
    void aNewQueuedJobMakesAFullReadWorthRunningAndAnUnchangedQueueDoesNot() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        agent.runOnce(clock.instant());
        assertFalse(agent.changed(), "nothing changed since the full read");
        scheduler.putJob(queued("1.s"));
        assertTrue(agent.changed());
        agent.runOnce(clock.instant());
        assertFalse(agent.changed(), "the full read saw it");
    }

    @Test
    void aDrainAskedForOrWithdrawnMakesAFullReadWorthRunning() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        agent.runOnce(clock.instant());
        documents.upsert(List.of(DrainDocument.request("batch", "n1", "idle", clock.instant()),
                new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
        assertTrue(agent.changed(), "the scaler's marker moved");
        agent.runOnce(clock.instant());
        assertTrue(scheduler.node("n1").isOffline(), "the full read carried the drain out");
        assertFalse(agent.changed());
    }

    @Test
    void aFailingQuickCheckWaitsForTheFullCycle() throws Exception {
        agent.runOnce(clock.instant());
        scheduler.failReads("qstat: cannot connect to server");
        assertFalse(agent.changed());
        store.setAvailable(false);
        scheduler.failReads(null);
        scheduler.putJob(queued("2.s"));
        assertTrue(agent.changed(), "the scheduler's own signature still tells, whatever the store");
    }

    @Test
    void theHeartbeatSaysWhenTheAgentLastWroteAChange() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        Instant first = clock.instant();
        agent.runOnce(first);
        assertEquals(first, heartbeat().lastChangeAt());
        clock.advance(Duration.ofMinutes(2));
        agent.runOnce(clock.instant());
        assertEquals(first, heartbeat().lastChangeAt(), "an unchanged cycle moves only LastCycleAt");
        assertEquals(clock.instant(), heartbeat().lastCycleAt());
        clock.advance(Duration.ofMinutes(2));
        scheduler.putJob(queued("3.s"));
        agent.runOnce(clock.instant());
        assertEquals(clock.instant(), heartbeat().lastChangeAt());
    }

    @Test
    void aRestartedAgentKeepsTheTimeOfItsLastChange() throws Exception {
        scheduler.putNode(freeNode("n1", "batch", 16));
        Instant first = clock.instant();
        agent.runOnce(first);
        Agent restarted = new Agent(scheduler, documents, new PoolMap(Map.of("batch", "batch"), Map.of()), "head",
                "test");
        clock.advance(Duration.ofMinutes(2));
        restarted.runOnce(clock.instant());
        assertEquals(first, heartbeat().lastChangeAt());
        assertNull(new AgentDocument("x", "s", "h", "v", first, 0, List.of(), null, first).lastChangeAt());
    }
}
