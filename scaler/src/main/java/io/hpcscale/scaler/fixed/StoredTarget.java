package io.hpcscale.scaler.fixed;

import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.documents.PoolTargetDocument;
import java.time.Clock;
import java.util.List;
import java.util.OptionalInt;

/** A fixed pool's target in the store's {@code target-<pool>} document, for pools with no cloud tag to hold it. */
public final class StoredTarget implements TargetSource {
    private final DocumentStore store;
    private final String pool;
    private final Clock clock;

    public StoredTarget(DocumentStore store, String pool, Clock clock) {
        this.store = store;
        this.pool = pool;
        this.clock = clock;
    }

    @Override
    public OptionalInt read() throws TargetUnavailableException {
        try {
            return store.read(PoolTargetDocument.keyFor(pool), PoolTargetDocument.class)
                    .map(stored -> OptionalInt.of(stored.document().target())).orElse(OptionalInt.empty());
        } catch (StoreException e) {
            throw new TargetUnavailableException("the target of pool " + pool + " cannot be read from the store: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void write(int count, String setBy) throws TargetUnavailableException {
        try {
            store.upsert(List.of(new PoolTargetDocument(pool, count, clock.instant(), setBy)));
        } catch (StoreException e) {
            throw new TargetUnavailableException("the target of pool " + pool + " cannot be written to the store: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return "the store's document " + PoolTargetDocument.idFor(pool);
    }
}
