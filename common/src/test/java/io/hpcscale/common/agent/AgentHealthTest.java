package io.hpcscale.common.agent;

import static io.hpcscale.common.agent.FakeSchedulerAdapter.freeNode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.HealthDocument.State;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Health before service, the agent's part ({@link HealthGate}). */
class AgentHealthTest {
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-27T10:00:00Z"));
    private final DocumentStore documents = new DocumentStore(new InMemoryClusterLoadStore(clock));
    private final FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
    private final Agent agent = new Agent(scheduler, documents,
            new PoolMap(Map.of("hb", "hb", "free", "free"), Map.of()), "head", "test", JobAdmission.none(),
            Set.of("hb"));

    private void cycle() throws InterruptedException {
        clock.advance(Duration.ofSeconds(10));
        agent.runOnce(clock.instant());
    }

    /** As hpcscale-node-check writes it: the check, then the marker the agent watches. */
    private void check(String node, State state, String output) {
        documents.upsert(List.of(HealthDocument.of(node, state, output, clock.instant())));
        documents.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
    }

    private HealthDocument stored(String node) {
        return documents.read(HealthDocument.keyFor(node), HealthDocument.class).orElseThrow().document();
    }

    @Test
    void aNodeIsHeldWhileItsCheckRunsAndServesOnceItPassed() throws Exception {
        scheduler.putNode(freeNode("hb-1", "hb", 120));
        cycle();
        check("hb-1", State.PENDING, null);
        cycle();
        assertTrue(scheduler.node("hb-1").offlineByHpcscale(), "no job while the check runs");
        check("hb-1", State.PASSED, "");
        cycle();
        assertFalse(scheduler.node("hb-1").isOffline(), "passed: in service");
    }

    @Test
    void aFailedNodeKeepsTheChecksFailureAsItsReasonAndIsMarkedHeld() throws Exception {
        scheduler.putNode(freeNode("hb-2", "hb", 120));
        cycle();
        check("hb-2", State.PENDING, null);
        cycle();
        check("hb-2", State.FAILED, "checking IB...\nERROR:  nhc:  Health check failed:  No IB port is ACTIVE");
        cycle();
        assertTrue(scheduler.node("hb-2").offlineByHpcscale());
        List<String> offlines = scheduler.commands().stream().filter(c -> c.startsWith("offline hb-2")).toList();
        assertTrue(offlines.get(offlines.size() - 1).contains("health check failed: ERROR:  nhc:  Health check "
                + "failed:  No IB port is ACTIVE"), offlines.toString());
        assertNotNull(stored("hb-2").heldAt(), "the node may now start its scheduler daemon: it takes no job");
        cycle();
        assertEquals(offlines.size(), scheduler.commands().stream().filter(c -> c.startsWith("offline hb-2")).count(),
                "the reason is written once");
    }

    @Test
    void aNodeCreatedOutOfServiceWithHpcscalesMarkWaitsForItsFirstCheck() throws Exception {
        scheduler.putNode(FakeSchedulerAdapter.withOffline(freeNode("hb-4", "hb", 120), true, true));
        cycle();
        cycle();
        assertTrue(scheduler.node("hb-4").offlineByHpcscale(), "no drain request, but no check yet either");
        check("hb-4", State.PASSED, "");
        cycle();
        assertFalse(scheduler.node("hb-4").isOffline());
    }

    @Test
    void aFailedCheckHoldsTheNodeThoughThisAgentsCopyOfTheConfigurationHasNoCheckForItsPool() throws Exception {
        scheduler.putNode(freeNode("free-1", "free", 4));
        cycle();
        check("free-1", State.FAILED, "the node's configuration gives its pool a check");
        cycle();
        assertTrue(scheduler.node("free-1").offlineByHpcscale(), "a failed node takes no job, whoever is right");
        assertNotNull(stored("free-1").heldAt());
    }

    @Test
    void aNodeWithoutAResultIsLeftInService() throws Exception {
        scheduler.putNode(freeNode("hb-3", "hb", 120));
        cycle();
        cycle();
        assertFalse(scheduler.node("hb-3").isOffline(), "no result: it served before the check was configured");
    }
}
