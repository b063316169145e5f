package io.hpcscale.scaler.check;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import java.util.List;
import java.util.function.Supplier;

/**
 * The nodes and jobs the agent reports in each pool, read from the store the configuration names. The store is opened on
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
        return new DocumentStore(open()).inPool(DocumentType.VMS, pool, VmDocument.class);
    }

    /** @throws StoreException saying which store could not be opened or read, and why */
    public synchronized List<JobDocument> jobsInPool(String pool) {
        return new DocumentStore(open()).inPool(DocumentType.JOBS, pool, JobDocument.class);
    }

    /**
     * Whether any agent has written a heartbeat naming the pool: before the first, the store holds no nodes to
     * compare, and that is no fault of the instances.
     *
     * @throws StoreException saying which store could not be opened or read, and why
     */
    public synchronized boolean anyAgentServes(String pool) {
        return new DocumentStore(open()).all(DocumentType.AGENTS, AgentDocument.class).stream()
                .anyMatch(agent -> agent.pools().contains(pool));
    }

    private ClusterLoadStore open() {
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
        return store;
    }

    @Override
    public synchronized void close() {
        if (store != null) {
            store.close();
        }
    }
}
