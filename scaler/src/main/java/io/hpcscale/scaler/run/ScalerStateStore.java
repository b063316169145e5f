package io.hpcscale.scaler.run;

import io.hpcscale.common.codec.DocumentFormatException;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.EtagConflictException;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoredDocument;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads and writes the scaler's state document of a pool. Unlike other documents, a state document that cannot be
 * read is an error, never "no state": forgetting which instances are booting would leave failed boots running.
 *
 * <p>It keeps the last version of each pool's state it read or wrote, by ETag: a state unchanged since is not
 * decoded again. The document is read at every cycle of every pool, and decoding a few hundred instance records (their
 * instants above all) was a quarter of the scaler's time in the simulator's profile. An ETag names one content, so a
 * state written by another scaler in between is always decoded afresh.
 */
final class ScalerStateStore {
    private final DocumentStore store;
    /** By pool: pools run their cycles in parallel. */
    private final Map<String, Loaded> lastKnown = new ConcurrentHashMap<>();

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
        Loaded known = lastKnown.get(pool);
        if (known != null && known.etag().equals(stored.get().etag())) {
            return known;
        }
        try {
            Loaded loaded = new Loaded(store.codec().decode(stored.get().json(), ScalerStateDocument.class),
                    stored.get().etag());
            lastKnown.put(pool, loaded);
            return loaded;
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
        String written = etag == null ? store.store().create(store.codec().encode(state))
                : store.store().replaceIfMatch(store.codec().encode(state), etag);
        lastKnown.put(state.poolName(), new Loaded(state, written));
        return written;
    }
}
