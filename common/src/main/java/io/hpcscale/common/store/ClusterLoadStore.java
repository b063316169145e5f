package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The ClusterLoad collection. Documents are JSON objects that carry their own {@code id}, {@code Type} and
 * {@code PoolName} (the partition); the store adds an ETag that changes on every write.
 *
 * <p>Every method throws {@link StoreException} when the store cannot be reached or fails. A failed single write
 * wrote nothing. A failed batch ({@link #upsertAll}, {@link #deleteAll}) may have written part of the batch, each
 * document whole: Cosmos DB has transactions only within one partition, so no store promises more. Who must not act
 * on half a batch reads the store again before relying on it (the agent does, after any failed write).
 */
public interface ClusterLoadStore extends AutoCloseable {
    /** How long {@link #changesSince} keeps reporting a deletion. */
    Duration DELETIONS_KEPT = Duration.ofHours(1);

    /** Inserts or replaces the documents; each is written whole, and a failure may leave some written. */
    void upsertAll(Collection<ObjectNode> documents);

    /** Deletes the documents with these keys; keys that are absent are ignored. A failure may leave some deleted. */
    void deleteAll(Collection<DocumentKey> keys);

    Optional<StoredDocument> read(DocumentKey key);

    List<StoredDocument> query(DocumentType type, String poolName);

    /** The documents of these types in one pool's partition, in one read. */
    List<StoredDocument> queryPool(String poolName, Set<DocumentType> types);

    List<StoredDocument> queryByType(DocumentType type);

    /**
     * One pool's documents of these types written since {@code position} ({@link PoolChanges#START}: all of them), and
     * those deleted since. A store whose reads are cheap answers every call with the whole pool, as this default does;
     * a store that charges per document read (Cosmos DB) answers with what changed. A deletion is reported for at
     * least {@link #DELETIONS_KEPT} after it: a reader whose position is older must start again from
     * {@link PoolChanges#START}.
     */
    default PoolChanges changesSince(String poolName, Set<DocumentType> types, long position) {
        return PoolChanges.whole(queryPool(poolName, types), PoolChanges.START);
    }

    /**
     * Replaces a document only if its current ETag is {@code expectedEtag}.
     *
     * @return the new ETag
     * @throws EtagConflictException if the document changed since it was read, or no longer exists
     */
    String replaceIfMatch(ObjectNode document, String expectedEtag);

    /**
     * Inserts a document that must not exist yet.
     *
     * @return its ETag
     * @throws EtagConflictException if a document with the same key exists
     */
    String create(ObjectNode document);

    /** Deletes documents whose {@code ttl} has passed (reads already ignore them); returns how many. */
    int purgeExpired();

    /**
     * The scaler's events of one pool (every pool when {@code poolName} is null): from {@link PoolChanges#START}, those
     * at or after {@code from} (a store may add a few from just before); from a later position, those written since
     * it. A store that charges per document read filters on its side; a cheap one may answer with them all.
     */
    default PoolChanges eventsSince(String poolName, Instant from, long position) {
        return PoolChanges.whole(poolName == null ? queryByType(DocumentType.EVENTS)
                : query(DocumentType.EVENTS, poolName), PoolChanges.START);
    }

    /**
     * What in the store's own setup is wrong or costs more than it needs to, each saying how to fix it; empty when
     * all is well. What makes the store unusable is a {@link StoreException} here, as on any other call.
     */
    default List<String> setupProblems() {
        return List.of();
    }

    /** Requests made and request units charged since this store was opened. */
    StoreUsage usage();

    /** Where the documents live, for messages: "SQLite file /var/lib/hpcscale/clusterload.db". */
    String describe();

    @Override
    void close();
}
