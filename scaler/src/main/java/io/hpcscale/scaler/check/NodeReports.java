package io.hpcscale.scaler.check;

import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import java.util.List;
import java.util.function.Supplier;

/**
 * The nodes the agent reports in each pool, read from the store the configuration names. The store is opened on
 * first use and once only: a store that cannot be opened fails each pool's read the same way, which {@code check}
 * reports as a finding rather than ending.
 */
public final class NodeReports implements AutoCloseable {
    private final Supplier<ClusterLoadStore> opener;
    private ClusterLoadStore store;
    private StoreException openFailure;

    /** @param opener opens the configured store, throwing {@link StoreException} when it cannot */
    public NodeReports(Supplier<ClusterLoadStore> opener) {
        this.opener = opener;
    }

    /** @throws StoreException saying which store could not be opened or read, and why */
    public synchronized List<VmDocument> inPool(String pool) {
        if (store == null && openFailure == null) {
            try {
                store = opener.get();
            } catch (StoreException e) {
                openFailure = e;
            }
        }
        if (openFailure != null) {
            throw openFailure;
        }
        return new DocumentStore(store).inPool(DocumentType.VMS, pool, VmDocument.class);
    }

    @Override
    public synchronized void close() {
        if (store != null) {
            store.close();
        }
    }
}
