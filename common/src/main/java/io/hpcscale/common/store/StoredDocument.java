package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;
import java.util.Objects;

/** A document as the store holds it, with the ETag of its current version. */
public record StoredDocument(ObjectNode json, String etag) {
    public StoredDocument {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(etag, "etag");
    }

    public DocumentKey key() {
        return DocumentKeys.of(json);
    }

    /** The document with its ETag as {@code _etag}, as administrators see it. */
    public ObjectNode withEtag() {
        ObjectNode copy = json.deepCopy();
        copy.put("_etag", etag);
        return copy;
    }
}
