package io.hpcscale.common.store;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each partition's documents (a managed pool's, or {@code _meta}'s notices and health checks), kept from one cycle to
 * the next and brought up to date with only what changed: the
 * store is asked each cycle for what changed since the last read (on Cosmos DB a query on the server's write time,
 * 2.5 RU when nothing did; a cheap store answers with the whole pool). Every {@code fullReadEvery} (an hour by
 * default) each pool is read whole instead, and a document older than the last read that the copy did not have is
 * logged as a bug: the incremental reads must never miss one. At most one pool is read whole for this per cycle: a
 * pool of 500 jobs costs about 300 RU to read whole, and ten of them in one cycle would overrun a 400 RU/s container.
 *
 * <p>Every pool is asked every cycle, including those nothing says changed: skipping them on marks in the agents'
 * heartbeats saved 2.5 RU a pool and a cycle, and needed the agent to announce each pool before writing there and
 * clear it after, so that a lost heartbeat could not hide a change; not worth its risk.
 */
public final class PartitionReads {
    private static final Logger log = LoggerFactory.getLogger(PartitionReads.class);
    /** A document this much older than the last read position must have been in the copy. */
    private static final long SETTLED_SECONDS = 60;

    private final DocumentStore store;
    private final Clock clock;
    private final Duration fullReadEvery;
    private final Map<String, PoolCopy> copies = new HashMap<>();

    /**
     * One pool as last read: its documents by key and where the store's changes go on from. The documents are kept in
     * the order of their ids, as SQLite answers them, whether read whole or in part: the planner breaks ties by the
     * order it is given (which idle node to drain first), and that must not depend on how the pool was last read.
     */
    private static final class PoolCopy {
        final Map<DocumentKey, StoredDocument> documents = new TreeMap<>(Comparator.comparing(DocumentKey::id));
        /**
         * When documents written with a {@code ttl} expire, in the store's epoch seconds: the store deletes them
         * without a tombstone, so only a whole read would otherwise tell that they are gone.
         */
        final Map<DocumentKey, Long> expiresAt = new HashMap<>();
        long position;
        Instant wholeAt;
        Instant readAt;

        void put(StoredDocument document) {
            DocumentKey key = document.key();
            documents.put(key, document);
            Instant expires = document.writtenAt() > 0
                    ? Ttl.expiresAt(document.json(), Instant.ofEpochSecond(document.writtenAt())) : null;
            if (expires != null) {
                expiresAt.put(key, expires.getEpochSecond());
            } else {
                expiresAt.remove(key);
            }
        }

        void remove(DocumentKey key) {
            documents.remove(key);
            expiresAt.remove(key);
        }
    }

    private boolean periodicReadDone;

    public PartitionReads(DocumentStore store, Clock clock, Duration fullReadEvery) {
        this.store = store;
        this.clock = clock;
        this.fullReadEvery = fullReadEvery;
    }

    /** A new cycle: one more pool may have its periodic whole read. */
    public synchronized void beginCycle() {
        periodicReadDone = false;
    }

    /** Forgets every copy, so each pool is read whole next: what a standby kept is not trusted by the holder. */
    public synchronized void forget() {
        copies.clear();
    }

    /** The pool's documents of these types, as they are now. */
    public List<StoredDocument> read(String pool, Set<DocumentType> types) {
        return read(pool, types, clock.instant());
    }

    /** The pool's documents of these types, as they are now, for a reader whose cycle began at {@code now}. */
    public synchronized List<StoredDocument> read(String pool, Set<DocumentType> types, Instant now) {
        PoolCopy copy = copies.get(pool);
        boolean periodic = copy != null && !now.isBefore(copy.wholeAt.plus(fullReadEvery)) && !periodicReadDone;
        periodicReadDone |= periodic;
        boolean wholeDue = copy == null || periodic
                || !now.isBefore(copy.readAt.plus(ClusterLoadStore.DELETIONS_KEPT.dividedBy(2)));
        PoolChanges changes = store.store().changesSince(pool, types,
                wholeDue ? PoolChanges.START : copy.position);
        if (changes.whole() && changes.position() == PoolChanges.START) {
            // A store that answers every read whole (SQLite, memory): nothing to keep between cycles, and its
            // documents stay unparsed until decoded, where one that does not follow the contract is skipped.
            copies.remove(pool);
            return changes.documents();
        }
        PoolCopy next = copy == null || changes.whole() ? new PoolCopy() : copy;
        if (changes.whole()) {
            if (copy != null) {
                reportMissed(pool, copy, changes);
            }
            next.wholeAt = wholeDue || copy == null ? now : copy.wholeAt;
        } else {
            changes.deleted().forEach(next::remove);
        }
        for (StoredDocument document : changes.documents()) {
            try {
                next.put(document);
            } catch (RuntimeException e) {
                log.atWarn().addKeyValue(LogFields.POOL, pool).log("pool={} a document without a valid id or pool "
                        + "name is skipped: {}", pool, e.getMessage());
            }
        }
        List<DocumentKey> expired = next.expiresAt.entrySet().stream()
                .filter(expiry -> expiry.getValue() <= now.getEpochSecond()).map(Map.Entry::getKey).toList();
        expired.forEach(next::remove);
        next.position = changes.position();
        next.readAt = now;
        copies.put(pool, next);
        return List.copyOf(next.documents.values());
    }

    /**
     * A whole read of a pool finds what the copy should already hold: a document written well before the copy's last
     * position and not in it is one the incremental reads missed. A store that answers every read whole, or does not
     * say when it wrote a document, is not checked.
     */
    private static void reportMissed(String pool, PoolCopy copy, PoolChanges changes) {
        if (copy.position <= PoolChanges.START) {
            return;
        }
        List<DocumentKey> missed = new ArrayList<>();
        for (StoredDocument document : changes.documents()) {
            StoredDocument known = copy.documents.get(document.key());
            boolean settled = document.writtenAt() > 0 && document.writtenAt() < copy.position - SETTLED_SECONDS;
            if (settled && (known == null || !Objects.equals(known.etag(), document.etag()))) {
                missed.add(document.key());
            }
        }
        if (!missed.isEmpty()) {
            log.atWarn().addKeyValue(LogFields.POOL, pool).log("pool={} its periodic whole read found {} documents "
                    + "that reading only the changes had missed (the first: {}). The scaler now works from the whole "
                    + "read; this is a bug in hpcscale, please report it with this line", pool, missed.size(),
                    missed.get(0));
        }
    }

    /** The typed documents of a read, those that do not follow the contract skipped by the store's decoder. */
    public List<ClusterLoadDocument> decoded(List<StoredDocument> documents) {
        return store.decode(documents);
    }
}
