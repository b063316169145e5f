package io.hpcscale.scaler.run;

import io.hpcscale.common.codec.DocumentFormatException;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.EtagConflictException;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoredDocument;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import java.util.Optional;

/**
 * Reads and writes the scaler's state document of a pool. Unlike other documents, a state document that cannot be
 * read is an error, never "no state": forgetting which instances are booting would leave failed boots running.
 */
final class ScalerStateStore {
    private final DocumentStore store;

    ScalerStateStore(DocumentStore store) {
        this.store = store;
    }

    /** A pool's state with the ETag it was read at; a null ETag means there is no document yet. */
    record Loaded(ScalerStateDocument state, String etag) {
    }

    /** @throws StoreException when the store fails or the document exists but cannot be read */
    Loaded read(String pool) {
        DocumentKey key = new DocumentKey(pool, ScalerStateDocument.idFor(pool));
        Optional<StoredDocument> stored = store.store().read(key);
        if (stored.isEmpty()) {
            return new Loaded(ScalerStateDocument.empty(pool), null);
        }
        try {
            return new Loaded(store.codec().decode(stored.get().json(), ScalerStateDocument.class),
                    stored.get().etag());
        } catch (DocumentFormatException e) {
            throw new StoreException("the scaler's state of pool " + pool + " (" + key + " in "
                    + store.store().describe() + ") cannot be read: " + e.getMessage() + "; nothing is done to the "
                    + "pool until it is repaired. Deleting it makes the scaler forget which instances it started "
                    + "and which are booting");
        }
    }

    /**
     * Writes the state if the stored one is still the version read at {@code etag}.
     *
     * @return the new ETag
     * @throws EtagConflictException when another scaler wrote it in between
     */
    String write(ScalerStateDocument state, String etag) {
        if (etag == null) {
            return store.store().create(store.codec().encode(state));
        }
        return store.store().replaceIfMatch(store.codec().encode(state), etag);
    }
}
