package io.hpcscale.scaler.run;

import static io.hpcscale.scaler.run.ScalerFixture.pool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoredDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the scaler and the agent tell each other, with one cheap read, that a cycle is worth running now. */
class ScalerWakeUpTest {
    private final ScalerFixture fixture = new ScalerFixture();
    private final DocumentStore documents = new DocumentStore(fixture.memory);

    private void heartbeat(String pool, Instant lastChangeAt) {
        documents.upsert(List.of(new AgentDocument("agent-h-pbs", "pbs", "h", "t", fixture.clock.instant(), 5,
                List.of(pool), null, fixture.clock.instant(), lastChangeAt)));
    }

    @Test
    void anAgentThatWroteAChangeWakesTheScalerAndOneThatOnlyReadDoesNot() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool("a", 4));
        Instant first = fixture.clock.instant();
        heartbeat("a", first);
        scaler.runOnce(fixture.clock.instant());
        fixture.clock.advance(Duration.ofSeconds(30));
        heartbeat("a", first);
        assertFalse(scaler.agentsChanged(), "a new heartbeat with no new change");
        heartbeat("a", fixture.clock.instant());
        assertTrue(scaler.agentsChanged());
        scaler.runOnce(fixture.clock.instant());
        assertFalse(scaler.agentsChanged(), "the cycle read it");
    }

    @Test
    void theFirstAgentToReportWakesAScalerThatStartedBeforeIt() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool("a", 4));
        scaler.runOnce(fixture.clock.instant());
        assertFalse(scaler.agentsChanged(), "no agent yet");
        heartbeat("b", fixture.clock.instant());
        assertFalse(scaler.agentsChanged(), "an agent of another pool");
        heartbeat("a", fixture.clock.instant());
        assertTrue(scaler.agentsChanged(), "the pool's first agent, without waiting for the next cycle");
        scaler.runOnce(fixture.clock.instant());
        assertFalse(scaler.agentsChanged());
    }

    @Test
    void anAgentOfAnotherPoolIsNotWatched() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool("a", 4));
        heartbeat("b", fixture.clock.instant());
        scaler.runOnce(fixture.clock.instant());
        heartbeat("b", fixture.clock.instant().plusSeconds(10));
        assertFalse(scaler.agentsChanged());
    }

    @Test
    void askingForADrainMovesTheMarkerTheAgentsWatch() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool("a", 4));
        fixture.cloud.addScaleSet("a", 1, "a-vm", Duration.ZERO);
        fixture.cloud.provider("a").start(fixture.cloud.instances("a"));
        documents.upsert(List.of(new VmDocument("a-vm001", "a", "a-vm001", NodeJobStatus.Free, "free", false, false,
                false, false, 16, 0, 65536, 0, 0, 0, List.of(), fixture.clock.instant().minus(Duration.ofHours(1)),
                fixture.clock.instant(), null, "agent-h-pbs")));
        fixture.agentReported("a");
        scaler.runOnce(fixture.clock.instant());
        StoredDocument marker = fixture.memory.read(ChangeMarkerDocument.DRAINS_KEY).orElseThrow();
        assertEquals(1, fixture.eventsOf(io.hpcscale.scaler.plan.EventKind.DRAIN).size());

        fixture.clock.advance(Duration.ofMinutes(1));
        fixture.agentReported("a");
        fixture.queued("a", "1", 16);
        scaler.runOnce(fixture.clock.instant());
        assertEquals(1, fixture.eventsOf(io.hpcscale.scaler.plan.EventKind.CANCEL_DRAIN).size());
        assertNotEquals(marker.etag(), fixture.memory.read(ChangeMarkerDocument.DRAINS_KEY).orElseThrow().etag(),
                "withdrawing it moved the marker again");
    }
}
