package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.logging.CapturedLog;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PartitionReadsTest {
    private static final Set<DocumentType> TYPES = Set.of(DocumentType.JOBS, DocumentType.VMS, DocumentType.DRAINS);
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-26T08:00:00Z"));

    /**
     * Records the positions asked for; answers with {@link #answers} when any are queued, else
     * with every document, as a store that reads changes would answer from the start (whole) or from a position.
     */
    private final class CountingStore extends ForwardingClusterLoadStore {
        final List<Long> positions = new java.util.ArrayList<>();
        final Deque<PoolChanges> answers = new ArrayDeque<>();

        CountingStore() {
            super(new InMemoryClusterLoadStore(clock));
        }

        @Override
        public PoolChanges changesSince(String poolName, Set<DocumentType> types, long position) {
            positions.add(position);
            return answers.isEmpty() ? new PoolChanges(queryPool(poolName, types), List.of(), 100,
                    position == PoolChanges.START) : answers.poll();
        }
    }

    private final CountingStore counting = new CountingStore();
    private final DocumentStore documents = new DocumentStore(counting);
    private final PartitionReads reads = new PartitionReads(documents, clock, Duration.ofHours(1));

    @Test
    void eachCycleAsksOnlyForWhatChangedSinceTheLastRead() {
        reads.read("p", TYPES);
        clock.advance(Duration.ofMinutes(1));
        documents.upsert(List.of(DrainDocument.request("p", "node1", "idle", clock.instant())));
        List<StoredDocument> after = reads.read("p", TYPES);
        assertEquals(List.of(PoolChanges.START, 100L), counting.positions, "whole first, then from the position");
        assertEquals(1, after.size());
    }

    @Test
    void changesAreAppliedToTheCopyAndTheHourlyWholeReadReportsWhatTheyMissed() {
        counting.answers.add(PoolChanges.whole(List.of(stored("j1", "e1", 1_000), stored("j2", "e2", 1_000)), 1_000));
        counting.answers.add(new PoolChanges(List.of(stored("j3", "e3", 2_000)), List.of(new DocumentKey("p", "j1")),
                2_000, false));
        assertEquals(Set.of("j1", "j2"), ids(reads.read("p", TYPES)));
        assertEquals(Set.of("j2", "j3"), ids(reads.read("p", TYPES)));

        // The whole read finds j4, written long before the last read, which the changes never brought.
        counting.answers.add(PoolChanges.whole(List.of(stored("j2", "e2", 1_000), stored("j3", "e3", 2_000),
                stored("j4", "e4", 1_500), stored("j5", "e5", 2_000)), 2_000));
        clock.advance(Duration.ofHours(1));
        try (CapturedLog log = new CapturedLog(PartitionReads.class)) {
            assertEquals(Set.of("j2", "j3", "j4", "j5"), ids(reads.read("p", TYPES)));
            List<String> warnings = log.at(Level.WARN);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("found 1 documents") && warnings.get(0).contains("p/j4")
                    && warnings.get(0).contains("bug"), warnings.get(0));
        }
    }

    @Test
    void atMostOnePoolIsReadWholeForItsHourlyCheckInACycle() {
        reads.beginCycle();
        reads.read("a", TYPES);
        reads.read("b", TYPES);
        for (int minute = 5; minute < 60; minute += 5) {
            clock.advance(Duration.ofMinutes(5));
            reads.beginCycle();
            reads.read("a", TYPES);
            reads.read("b", TYPES);
        }
        clock.advance(Duration.ofMinutes(5));
        counting.positions.clear();
        reads.beginCycle();
        reads.read("a", TYPES);
        reads.read("b", TYPES);
        assertEquals(List.of(PoolChanges.START, 100L), counting.positions, "a read whole, b for its changes");
        reads.beginCycle();
        reads.read("b", TYPES);
        assertEquals(PoolChanges.START, counting.positions.get(2), "b's turn comes at the next cycle");
    }

    @Test
    void forgettingMakesTheNextReadWhole() {
        counting.answers.add(PoolChanges.whole(List.of(stored("j1", "e1", 1_000)), 1_000));
        reads.read("p", TYPES);
        reads.forget();
        reads.read("p", TYPES);
        assertEquals(List.of(PoolChanges.START, PoolChanges.START), counting.positions);
        assertTrue(reads.read("p", TYPES).isEmpty(), "the store's whole answer replaced the copy");
    }

    @Test
    void aDocumentWrittenWithATtlLeavesTheCopyWhenItExpiresThoughNoChangeSaysSo() {
        long written = clock.instant().getEpochSecond();
        StoredDocument expiring = stored("n1", "e1", written);
        expiring.json().put("ttl", 600);
        counting.answers.add(PoolChanges.whole(List.of(expiring, stored("n2", "e2", written)), written));
        assertEquals(Set.of("n1", "n2"), ids(reads.read("_meta", TYPES)));
        clock.advance(Duration.ofMinutes(9));
        counting.answers.add(new PoolChanges(List.of(), List.of(), written + 540, false));
        assertEquals(Set.of("n1", "n2"), ids(reads.read("_meta", TYPES)));
        clock.advance(Duration.ofMinutes(1));
        counting.answers.add(new PoolChanges(List.of(), List.of(), written + 600, false));
        assertEquals(Set.of("n2"), ids(reads.read("_meta", TYPES)), "the store deleted n1 without a tombstone");
    }

    private static StoredDocument stored(String id, String etag, long writtenAt) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("id", id);
        json.put("PoolName", "p");
        json.put("Type", "jobs");
        return new StoredDocument(json, etag, writtenAt);
    }

    private static Set<String> ids(List<StoredDocument> documents) {
        return Set.copyOf(documents.stream().map(d -> d.key().id()).toList());
    }
}
