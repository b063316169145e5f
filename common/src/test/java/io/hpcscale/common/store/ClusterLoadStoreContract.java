package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.time.SettableClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link ClusterLoadStore} must do; each store's test extends this. */
public abstract class ClusterLoadStoreContract {
    protected final SettableClock clock = new SettableClock(Instant.parse("2026-11-22T10:00:00Z"));
    protected ClusterLoadStore store;

    protected abstract ClusterLoadStore newStore(Clock clock) throws Exception;

    /** Lets time pass for the store: the test clock for the embedded stores, the wall clock for a server. */
    protected void letTimePass(Duration duration) throws InterruptedException {
        clock.advance(duration);
    }

    @BeforeEach
    void openStore() throws Exception {
        store = newStore(clock);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    public static ObjectNode doc(String type, String pool, String id, int value) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("id", id);
        json.put("Type", type);
        json.put("PoolName", pool);
        json.put("SchemaVersion", 1);
        json.put("Value", value);
        return json;
    }

    private static List<String> ids(List<StoredDocument> documents) {
        return documents.stream().map(d -> d.key().toString()).sorted().collect(Collectors.toList());
    }

    @Test
    void upsertsReadsAndQueriesByTypeAndPool() {
        store.upsertAll(List.of(doc("jobs", "a", "1", 1), doc("jobs", "b", "1", 2), doc("vms", "a", "n1", 3)));
        assertEquals(2, store.read(new DocumentKey("b", "1")).orElseThrow().json().get("Value").asInt());
        assertEquals(List.of("a/1"), ids(store.query(DocumentType.JOBS, "a")));
        assertEquals(List.of("a/1", "b/1"), ids(store.queryByType(DocumentType.JOBS)));
        assertEquals(List.of("a/n1"), ids(store.queryByType(DocumentType.VMS)));
        assertTrue(store.read(new DocumentKey("a", "absent")).isEmpty());
    }

    @Test
    void upsertReplacesAndChangesTheEtag() {
        store.upsertAll(List.of(doc("jobs", "a", "1", 1)));
        String first = store.read(new DocumentKey("a", "1")).orElseThrow().etag();
        store.upsertAll(List.of(doc("jobs", "a", "1", 2)));
        StoredDocument second = store.read(new DocumentKey("a", "1")).orElseThrow();
        assertEquals(2, second.json().get("Value").asInt());
        assertNotEquals(first, second.etag());
    }

    @Test
    void writesNothingWhenOneDocumentOfABatchIsInvalid() {
        ObjectNode broken = doc("jobs", "a", "2", 2);
        broken.remove("PoolName");
        assertThrows(IllegalArgumentException.class, () -> store.upsertAll(List.of(doc("jobs", "a", "1", 1), broken)));
        assertTrue(store.queryByType(DocumentType.JOBS).isEmpty());
    }

    @Test
    void deletesByKeyAndIgnoresAbsentKeys() {
        store.upsertAll(List.of(doc("jobs", "a", "1", 1), doc("jobs", "a", "2", 2)));
        store.deleteAll(List.of(new DocumentKey("a", "1"), new DocumentKey("a", "never")));
        assertEquals(List.of("a/2"), ids(store.queryByType(DocumentType.JOBS)));
    }

    @Test
    void aDeletedDocumentIsGoneForEveryReadAndItsIdFreeAgain() {
        store.upsertAll(List.of(doc("drains", "a", "drain-n1", 1), doc("lease", "_meta", "scaler-lease", 1)));
        store.deleteAll(List.of(new DocumentKey("a", "drain-n1"), new DocumentKey("_meta", "scaler-lease")));
        assertTrue(store.read(new DocumentKey("a", "drain-n1")).isEmpty());
        assertTrue(store.queryPool("a", java.util.Set.of(DocumentType.DRAINS, DocumentType.JOBS)).isEmpty());
        String etag = store.create(doc("lease", "_meta", "scaler-lease", 2));
        assertEquals(etag, store.read(new DocumentKey("_meta", "scaler-lease")).orElseThrow().etag());
        store.upsertAll(List.of(doc("drains", "a", "drain-n1", 3)));
        assertEquals(3, store.read(new DocumentKey("a", "drain-n1")).orElseThrow().json().path("Value").asInt());
    }

    @Test
    void followingAPoolsChangesAlwaysGivesThePoolAsItIs() throws Exception {
        java.util.Set<DocumentType> types = java.util.Set.of(DocumentType.JOBS, DocumentType.VMS);
        store.upsertAll(List.of(doc("jobs", "a", "1", 1), doc("jobs", "a", "2", 2), doc("vms", "a", "n1", 3),
                doc("jobs", "b", "1", 4), doc("drains", "a", "drain-n1", 5)));
        java.util.Map<DocumentKey, StoredDocument> copy = new java.util.HashMap<>();
        PoolChanges first = store.changesSince("a", types, PoolChanges.START);
        assertTrue(first.whole());
        long position = apply(copy, first);
        assertEquals(java.util.Set.of("a/1", "a/2", "a/n1"), keys(copy));

        letTimePass(Duration.ofSeconds(2));
        store.upsertAll(List.of(doc("jobs", "a", "2", 20), doc("jobs", "a", "3", 30), doc("jobs", "b", "9", 9)));
        store.deleteAll(List.of(new DocumentKey("a", "1"), new DocumentKey("a", "drain-n1")));
        position = apply(copy, store.changesSince("a", types, position));
        assertEquals(java.util.Set.of("a/2", "a/3", "a/n1"), keys(copy));
        assertEquals(20, copy.get(new DocumentKey("a", "2")).json().path("Value").asInt());

        store.deleteAll(List.of(new DocumentKey("a", "n1")));
        store.upsertAll(List.of(doc("vms", "a", "n1", 31)));
        apply(copy, store.changesSince("a", types, position));
        assertEquals(31, copy.get(new DocumentKey("a", "n1")).json().path("Value").asInt(),
                "a document deleted and written again is there");
        assertEquals(ids(store.queryPool("a", types)), copy.keySet().stream().map(DocumentKey::toString).sorted()
                .toList());
    }

    private static long apply(java.util.Map<DocumentKey, StoredDocument> copy, PoolChanges changes) {
        if (changes.whole()) {
            copy.clear();
        }
        changes.deleted().forEach(copy::remove);
        changes.documents().forEach(document -> copy.put(document.key(), document));
        return changes.position();
    }

    private static java.util.Set<String> keys(java.util.Map<DocumentKey, StoredDocument> copy) {
        return copy.keySet().stream().map(DocumentKey::toString).collect(Collectors.toSet());
    }

    @Test
    void replacesOnlyWithTheCurrentEtag() {
        String etag = store.create(doc("lease", "_meta", "scaler-lease", 1));
        String next = store.replaceIfMatch(doc("lease", "_meta", "scaler-lease", 2), etag);
        EtagConflictException stale = assertThrows(EtagConflictException.class,
                () -> store.replaceIfMatch(doc("lease", "_meta", "scaler-lease", 3), etag));
        assertEquals(new DocumentKey("_meta", "scaler-lease"), stale.key());
        assertEquals(2, store.read(stale.key()).orElseThrow().json().get("Value").asInt());
        assertEquals(next, store.read(stale.key()).orElseThrow().etag());
    }

    @Test
    void conditionalReplaceOfAVanishedDocumentIsAConflict() {
        String etag = store.create(doc("lease", "_meta", "l", 1));
        store.deleteAll(List.of(new DocumentKey("_meta", "l")));
        assertThrows(EtagConflictException.class, () -> store.replaceIfMatch(doc("lease", "_meta", "l", 2), etag));
    }

    @Test
    void createRefusesAnExistingDocument() {
        store.create(doc("lease", "_meta", "l", 1));
        assertThrows(EtagConflictException.class, () -> store.create(doc("lease", "_meta", "l", 2)));
    }

    @Test
    void hidesDocumentsWhoseTtlHasPassed() throws Exception {
        ObjectNode event = doc("events", "a", "e1", 1);
        event.put("ttl", 2);
        store.upsertAll(List.of(event, doc("events", "a", "e2", 2)));
        assertTrue(store.read(new DocumentKey("a", "e1")).isPresent());
        letTimePass(Duration.ofMillis(3500));
        assertEquals(List.of("a/e2"), ids(store.query(DocumentType.EVENTS, "a")));
        assertTrue(store.read(new DocumentKey("a", "e1")).isEmpty());
    }

    @Test
    void keepsFieldsItDoesNotKnowAndHidesItsOwn() {
        ObjectNode written = doc("jobs", "a", "1", 1);
        written.putObject("WrittenByANewerAgent").putArray("Values").add(1).add("two");
        written.put("Note", "kept as written");
        store.upsertAll(List.of(written));
        ObjectNode read = store.read(new DocumentKey("a", "1")).orElseThrow().json();
        assertEquals(written, read, "what was written comes back, and nothing the store adds for itself");
    }

    @Test
    void readsOnePoolsDocumentsOfTheTypesAskedInOneQuery() {
        store.upsertAll(List.of(doc("jobs", "a", "1", 1), doc("vms", "a", "n1", 2), doc("events", "a", "e1", 3),
                doc("jobs", "b", "2", 4), doc("drains", "a", "drain-n1", 5)));
        assertEquals(List.of("a/1", "a/drain-n1", "a/n1"), ids(store.queryPool("a",
                java.util.Set.of(DocumentType.JOBS, DocumentType.VMS, DocumentType.DRAINS))));
        assertEquals(List.of("b/2"), ids(store.queryPool("b", java.util.Set.of(DocumentType.JOBS))));
        assertTrue(store.queryPool("c", java.util.Set.of(DocumentType.JOBS)).isEmpty());
    }

    @Test
    void theEtagACreateOrReplaceReturnsIsTheOneARead() {
        String created = store.create(doc("lease", "_meta", "l", 1));
        assertEquals(created, store.read(new DocumentKey("_meta", "l")).orElseThrow().etag());
        String replaced = store.replaceIfMatch(doc("lease", "_meta", "l", 2), created);
        assertEquals(replaced, store.read(new DocumentKey("_meta", "l")).orElseThrow().etag());
        assertEquals(replaced, store.query(DocumentType.LEASE, "_meta").get(0).etag());
    }

    @Test
    void writesAndReadsTenThousandDocumentsInOneBatch() {
        List<ObjectNode> many = new java.util.ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            many.add(doc("jobs", "pool" + (i % 4), "job" + i, i));
        }
        store.upsertAll(many);
        assertEquals(2500, store.query(DocumentType.JOBS, "pool1").size());
        assertEquals(10_000, store.queryByType(DocumentType.JOBS).size());
        store.deleteAll(many.subList(0, 5000).stream().map(DocumentKeys::of).toList());
        assertEquals(5000, store.queryByType(DocumentType.JOBS).size());
    }
}
