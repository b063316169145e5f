package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The ClusterLoad collection. Documents are JSON objects that carry their own {@code id}, {@code Type} and
 * {@code PoolName}; the store adds an ETag that changes on every write.
 *
 * <p>Every method throws {@link StoreException} when the store cannot be reached or fails; nothing is then written.
 */
public interface ClusterLoadStore extends AutoCloseable {

    /** Inserts or replaces all documents in one transaction: either all are written or none. */
    void upsertAll(Collection<ObjectNode> documents);

    /** Deletes the documents with these keys; keys that are absent are ignored. */
    void deleteAll(Collection<DocumentKey> keys);

    Optional<StoredDocument> read(DocumentKey key);

    List<StoredDocument> query(DocumentType type, String poolName);

    List<StoredDocument> queryByType(DocumentType type);

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

    /** Where the documents live, for messages: "SQLite file /var/lib/hpcscale/clusterload.db". */
    String describe();

    @Override
    void close();
}
