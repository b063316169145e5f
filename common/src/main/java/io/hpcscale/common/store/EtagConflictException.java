package io.hpcscale.common.store;

import io.hpcscale.common.model.DocumentKey;

/** A conditional write lost a race: the document changed (or appeared, or vanished) since it was read. */
public class EtagConflictException extends RuntimeException {
    private final DocumentKey key;

    public EtagConflictException(DocumentKey key, String detail) {
        super("document " + key + " " + detail);
        this.key = key;
    }

    public DocumentKey key() {
        return key;
    }
}
