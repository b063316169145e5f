package io.hpcscale.common.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentType;

/**
 * How the documents of one type that a program keeps for itself are written and read (the scaler's state, lease,
 * events, usage, targets): the module that owns them lists its formats in
 * {@code META-INF/services/io.hpcscale.common.codec.DocumentFormat}, and {@link DocumentCodec} uses them wherever
 * that module is on the class path. A program without the module skips such documents as unreadable.
 */
public interface DocumentFormat<T extends ClusterLoadDocument> {

    DocumentType type();

    Class<T> documentClass();

    /** Writes the document's own fields; its id, type, pool and schema version are written already. */
    void encode(T document, ObjectNode json);

    /** Reads a document of this type; {@link FieldReader#fail} for a field that breaks the contract. */
    T decode(FieldReader fields);
}
