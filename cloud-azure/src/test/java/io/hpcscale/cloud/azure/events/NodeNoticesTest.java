package io.hpcscale.cloud.azure.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.cloud.azure.events.NodeNotices.Outcome;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.store.StoredDocument;
import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NodeNoticesTest {
    private static final String VM = "spot_7";
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-27T10:00:00Z"));
    private final InMemoryClusterLoadStore raw = new InMemoryClusterLoadStore(clock);
    private final DocumentStore store = new DocumentStore(raw);
    private final ScheduledEventsImitation imds;
    private final NodeNotices notices;

    NodeNoticesTest() throws Exception {
        imds = new ScheduledEventsImitation(VM);
        notices = new NodeNotices(new ScheduledEventsEndpoint(imds.endpoint(), Duration.ofSeconds(1),
                Duration.ofSeconds(1)), store, "spot7", VM);
    }

    @AfterEach
    void close() {
        imds.close();
    }

    private Outcome poll() throws InterruptedException {
        clock.advance(Duration.ofSeconds(5));
        return notices.poll(clock.instant());
    }

    private Optional<NoticeDocument> notice() {
        return store.read(NoticeDocument.keyFor("spot7"), NoticeDocument.class).map(DocumentStore.Versioned::document);
    }

    private String marker() {
        return raw.read(ChangeMarkerDocument.DRAINS_KEY).map(StoredDocument::etag).orElse(null);
    }

    /** The agent's part, as it does it: the node is out of service and empty. */
    private void agentMarksReady() {
        NoticeDocument stored = notice().orElseThrow();
        store.upsert(List.of(stored.readyAt(clock.instant())));
    }

    @Test
    void aPreemptForThisVmBecomesANoticeAndMovesTheMarkerTheAgentWatches() throws Exception {
        String before = marker();
        String id = imds.schedule("Preempt", clock.instant().plusSeconds(30), "Platform", VM);
        assertEquals(Outcome.WRITTEN, poll());
        NoticeDocument notice = notice().orElseThrow();
        assertEquals(id, notice.eventId());
        assertEquals(NoticeDocument.Kind.PREEMPT, notice.kind());
        assertEquals(Instant.parse("2026-11-27T10:00:30Z"), notice.notBefore(), "read from the RFC 1123 date");
        assertNotEquals(before, marker());
        assertEquals(Outcome.NOTHING, poll());
        assertEquals(Outcome.NOTHING, poll());
        assertEquals(List.of(), imds.startRequests(), "an eviction is never hurried");
    }

    @Test
    void anEventForAnotherVmOfThePlacementGroupIsNotThisNodes() throws Exception {
        imds.schedule("Reboot", clock.instant().plusSeconds(900), "Platform", "spot_3", "spot_9");
        assertEquals(Outcome.NOTHING, poll());
        assertTrue(notice().isEmpty());
    }

    @Test
    void aTerminateIsAcknowledgedOnlyOnceTheAgentFoundTheNodeEmpty() throws Exception {
        String id = imds.schedule("Terminate", clock.instant().plusSeconds(600), "Platform", VM);
        assertEquals(Outcome.WRITTEN, poll());
        for (int i = 0; i < 5; i++) {
            assertEquals(Outcome.NOTHING, poll());
        }
        assertEquals(List.of(), imds.startRequests(), "jobs may still run on it");
        agentMarksReady();
        clock.advance(NodeNotices.READY_CHECK);
        assertEquals(Outcome.ACKNOWLEDGED, poll());
        assertEquals(List.of(id), imds.startRequests());
        assertTrue(imds.started(id));
        assertEquals(Outcome.NOTHING, poll(), "acknowledged once");
    }

    @Test
    void theNoticeGoesWhenTheEventIsOverAndTheGravestEventIsTheOneNoticed() throws Exception {
        String freeze = imds.schedule("Freeze", clock.instant().plusSeconds(900), "Platform", VM);
        assertEquals(Outcome.WRITTEN, poll());
        String preempt = imds.schedule("Preempt", clock.instant().plusSeconds(30), "Platform", VM);
        assertEquals(Outcome.WRITTEN, poll());
        assertEquals(preempt, notice().orElseThrow().eventId(), "the eviction outranks the freeze");
        imds.end(preempt);
        assertEquals(Outcome.WRITTEN, poll());
        assertEquals(freeze, notice().orElseThrow().eventId());
        imds.end(freeze);
        assertEquals(Outcome.REMOVED, poll());
        assertTrue(notice().isEmpty());
    }

    @Test
    void anEndpointThatDoesNotAnswerLeavesTheNoticeAsItIs() throws Exception {
        imds.schedule("Preempt", clock.instant().plusSeconds(30), "Platform", VM);
        assertEquals(Outcome.WRITTEN, poll());
        imds.failing(true);
        assertEquals(Outcome.FAILED, poll());
        assertTrue(notice().isPresent(), "no answer is no news, not the end of the event");
    }

    @Test
    void aNoticeLeftFromBeforeAnEvictionIsRemovedWhenTheVmIsStartedAgain() throws Exception {
        store.upsert(List.of(NoticeDocument.of("spot7", "OLD", "Preempt", clock.instant().minusSeconds(3600), "",
                clock.instant().minusSeconds(3630))));
        assertEquals(Outcome.REMOVED, poll());
        assertTrue(notice().isEmpty());
    }

    @Test
    void pollingWithoutEventsCostsTheStoreNothing() throws Exception {
        poll();
        long requests = raw.usage().requests();
        for (int i = 0; i < 100; i++) {
            poll();
        }
        assertEquals(requests, raw.usage().requests(), "only the endpoint, which is local and free, is asked");
    }

    @Test
    void aNoticeIsWrittenAgainBeforeItWouldExpire() throws Exception {
        imds.schedule("Redeploy", clock.instant().plus(Duration.ofDays(3)), "Platform", VM);
        assertEquals(Outcome.WRITTEN, poll());
        agentMarksReady();
        clock.advance(NoticeDocument.KEPT.dividedBy(2));
        assertEquals(Outcome.WRITTEN, poll(), "an event days ahead outlives one notice's time to live");
        assertTrue(notice().orElseThrow().readyAt() != null, "the agent's mark survives the renewal");
    }
}
