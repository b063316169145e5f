package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A document as the store holds it, with the ETag of its current version. Its JSON may be produced only when asked
 * for: a reader that already knows this version by its ETag never pays for parsing it again.
 */
public final class StoredDocument {
    private final String etag;
    private final long writtenAt;
    private Supplier<ObjectNode> source;
    private ObjectNode json;

    public StoredDocument(ObjectNode json, String etag) {
        this(json, etag, 0);
    }

    /** @param writtenAt when the store last wrote it, in its own epoch seconds (Cosmos DB's {@code _ts}); 0: unknown */
    public StoredDocument(ObjectNode json, String etag, long writtenAt) {
        this.json = Objects.requireNonNull(json, "json");
        this.etag = Objects.requireNonNull(etag, "etag");
        this.writtenAt = writtenAt;
    }

    private StoredDocument(Supplier<ObjectNode> source, String etag) {
        this.source = source;
        this.etag = Objects.requireNonNull(etag, "etag");
        this.writtenAt = 0;
    }

    /** A document whose JSON is produced on first use; the supplier may throw a DocumentFormatException. */
    public static StoredDocument lazy(Supplier<ObjectNode> source, String etag) {
        return new StoredDocument(Objects.requireNonNull(source, "source"), etag);
    }

    public String etag() {
        return etag;
    }

    /** When the store last wrote this version, by the store's clock in epoch seconds; 0 when the store does not say. */
    public long writtenAt() {
        return writtenAt;
    }

    public synchronized ObjectNode json() {
        if (json == null) {
            json = source.get();
            source = null;
        }
        return json;
    }

    public DocumentKey key() {
        return DocumentKeys.of(json());
    }

    /** The document with its ETag as {@code _etag}, as administrators see it. */
    public ObjectNode withEtag() {
        ObjectNode copy = json().deepCopy();
        copy.put("_etag", etag);
        return copy;
    }
}
