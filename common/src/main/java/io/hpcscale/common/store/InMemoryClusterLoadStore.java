package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The store in memory: the fake for tests and the store of the simulator. It can be switched off to play a store
 * that is down, and counts writes so tests can assert how many documents a cycle wrote.
 */
public final class InMemoryClusterLoadStore implements ClusterLoadStore {
    private record Entry(ObjectNode json, String etag, Instant expiresAt) {
    }

    private final Clock clock;
    private final Map<DocumentKey, Entry> documents = new LinkedHashMap<>();
    /** The same entries by type, so a query reads only its own type. */
    private final Map<String, Map<DocumentKey, Entry>> byType = new HashMap<>();
    /**
     * And by type and pool, so that a pool's query reads only its own documents: the scaler queries every pool
     * each cycle, and scanning all of a type's documents per pool made a cycle over 1,000 pools take seconds.
     */
    private final Map<String, Map<String, Map<DocumentKey, Entry>>> byTypeAndPool = new HashMap<>();
    private final AtomicLong etags = new AtomicLong();
    private long documentsWritten;
    private long documentsDeleted;
    private boolean available = true;

    public InMemoryClusterLoadStore(Clock clock) {
        this.clock = clock;
    }

    /** Makes every call fail as if the store were unreachable, until switched back. */
    public synchronized void setAvailable(boolean available) {
        this.available = available;
    }

    /** Documents written by upserts, replaces and creates since this store was made. */
    public synchronized long documentsWritten() {
        return documentsWritten;
    }

    public synchronized long documentsDeleted() {
        return documentsDeleted;
    }

    public synchronized int size() {
        return documents.size();
    }

    @Override
    public synchronized void upsertAll(Collection<ObjectNode> batch) {
        checkAvailable();
        List<DocumentKey> keys = batch.stream().map(DocumentKeys::of).toList();
        batch.forEach(DocumentKeys::type);
        int i = 0;
        for (ObjectNode json : batch) {
            put(keys.get(i++), json);
        }
    }

    @Override
    public synchronized void deleteAll(Collection<DocumentKey> keys) {
        checkAvailable();
        for (DocumentKey key : keys) {
            if (remove(key) != null) {
                documentsDeleted++;
            }
        }
    }

    @Override
    public synchronized Optional<StoredDocument> read(DocumentKey key) {
        checkAvailable();
        return Optional.ofNullable(live(key)).map(InMemoryClusterLoadStore::stored);
    }

    @Override
    public synchronized List<StoredDocument> query(DocumentType type, String poolName) {
        checkAvailable();
        List<StoredDocument> result = new ArrayList<>();
        for (Entry entry : byTypeAndPool.getOrDefault(type.wireName(), Map.of())
                .getOrDefault(poolName, Map.of()).values()) {
            if (!expired(entry)) {
                result.add(stored(entry));
            }
        }
        return result;
    }

    @Override
    public synchronized List<StoredDocument> queryPool(String poolName, Set<DocumentType> types) {
        checkAvailable();
        List<StoredDocument> result = new ArrayList<>();
        for (DocumentType type : types) {
            result.addAll(query(type, poolName));
        }
        return result;
    }

    @Override
    public StoreUsage usage() {
        return StoreUsage.NONE;
    }

    @Override
    public synchronized List<StoredDocument> queryByType(DocumentType type) {
        checkAvailable();
        List<StoredDocument> result = new ArrayList<>();
        for (Entry entry : ofType(type).values()) {
            if (!expired(entry)) {
                result.add(stored(entry));
            }
        }
        return result;
    }

    @Override
    public synchronized String replaceIfMatch(ObjectNode json, String expectedEtag) {
        checkAvailable();
        DocumentKey key = DocumentKeys.of(json);
        Entry current = live(key);
        if (current == null) {
            throw new EtagConflictException(key, "no longer exists");
        }
        if (!current.etag().equals(expectedEtag)) {
            throw new EtagConflictException(key, "changed since it was read (ETag " + expectedEtag + " is stale)");
        }
        return put(key, json);
    }

    @Override
    public synchronized String create(ObjectNode json) {
        checkAvailable();
        DocumentKey key = DocumentKeys.of(json);
        if (live(key) != null) {
            throw new EtagConflictException(key, "already exists");
        }
        return put(key, json);
    }

    @Override
    public synchronized int purgeExpired() {
        checkAvailable();
        List<DocumentKey> expired = documents.entrySet().stream().filter(e -> expired(e.getValue()))
                .map(Map.Entry::getKey).toList();
        expired.forEach(this::remove);
        return expired.size();
    }

    @Override
    public String describe() {
        return "in-memory store";
    }

    @Override
    public void close() {
        // Nothing to release: the documents live as long as this object.
    }

    private String put(DocumentKey key, ObjectNode json) {
        String etag = "\"" + etags.incrementAndGet() + "\"";
        Entry entry = new Entry(json.deepCopy(), etag, Ttl.expiresAt(json, clock.instant()));
        remove(key);
        documents.put(key, entry);
        byType.computeIfAbsent(DocumentKeys.type(json), t -> new LinkedHashMap<>()).put(key, entry);
        byTypeAndPool.computeIfAbsent(DocumentKeys.type(json), t -> new HashMap<>())
                .computeIfAbsent(key.poolName(), p -> new LinkedHashMap<>()).put(key, entry);
        documentsWritten++;
        return etag;
    }

    private Entry remove(DocumentKey key) {
        Entry removed = documents.remove(key);
        if (removed != null) {
            String type = DocumentKeys.type(removed.json());
            Map<DocumentKey, Entry> sameType = byType.get(type);
            if (sameType != null) {
                sameType.remove(key);
            }
            Map<DocumentKey, Entry> samePool = byTypeAndPool.getOrDefault(type, Map.of()).get(key.poolName());
            if (samePool != null) {
                samePool.remove(key);
            }
        }
        return removed;
    }

    private Map<DocumentKey, Entry> ofType(DocumentType type) {
        return byType.getOrDefault(type.wireName(), Map.of());
    }

    private Entry live(DocumentKey key) {
        Entry entry = documents.get(key);
        return entry == null || expired(entry) ? null : entry;
    }

    private boolean expired(Entry entry) {
        return entry.expiresAt() != null && !entry.expiresAt().isAfter(clock.instant());
    }

    /** Copied only when read, so the stored version stays as written whatever the reader does with it. */
    private static StoredDocument stored(Entry entry) {
        return StoredDocument.lazy(() -> entry.json().deepCopy(), entry.etag());
    }

    private void checkAvailable() {
        if (!available) {
            throw new StoreException("in-memory store is switched off (playing a store that is down)");
        }
    }
}
