package io.hpcscale.simulator.soak;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.ForwardingClusterLoadStore;
import io.hpcscale.common.store.PoolChanges;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoredDocument;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A store that goes down (every call fails), slow (time passes inside each call) or throttled (some calls fail as
 * Cosmos DB's 429 does once its retries are spent), and where the agent or a scaler can die in the middle of a call.
 * A batch write that fails may have written part of the batch, as the store's contract allows.
 */
final class FaultyStore extends ForwardingClusterLoadStore {
    // As long as Cosmos DB's SDK goes on retrying a throttled call: a few slow calls outlast a scaler's lease.
    private static final Duration SLOW = Duration.ofSeconds(30);
    private final Faults faults;

    FaultyStore(ClusterLoadStore delegate, Faults faults) {
        super(delegate);
        this.faults = faults;
    }

    private void before(String call) {
        faults.call("store " + call);
        if (faults.on(Fault.STORE_SLOW)) {
            faults.slow(SLOW);
        }
        if (faults.hits(Fault.STORE_DOWN, 1)) {
            throw new StoreException("simulated store unreachable: " + call + " failed, connection refused");
        }
        if (faults.hits(Fault.STORE_THROTTLED, 2)) {
            throw new StoreException("simulated store " + call + " throttled (429) after 4 attempts: the container "
                    + "needs more request units");
        }
    }

    /** A batch cut short: the first part is written, then the store fails. */
    private <T> List<T> partOfBatch(Collection<T> batch) {
        List<T> all = new ArrayList<>(batch);
        return all.subList(0, faults.random().nextInt(all.size() + 1));
    }

    @Override
    public void upsertAll(Collection<ObjectNode> documents) {
        try {
            before("upsert");
        } catch (StoreException e) {
            if (!documents.isEmpty()) {
                super.upsertAll(partOfBatch(documents));
            }
            throw e;
        }
        super.upsertAll(documents);
    }

    @Override
    public void deleteAll(Collection<DocumentKey> keys) {
        try {
            before("delete");
        } catch (StoreException e) {
            if (!keys.isEmpty()) {
                super.deleteAll(partOfBatch(keys));
            }
            throw e;
        }
        super.deleteAll(keys);
    }

    @Override
    public Optional<StoredDocument> read(DocumentKey key) {
        before("read");
        return super.read(key);
    }

    @Override
    public List<StoredDocument> query(DocumentType type, String poolName) {
        before("query");
        return super.query(type, poolName);
    }

    @Override
    public List<StoredDocument> queryByType(DocumentType type) {
        before("query");
        return super.queryByType(type);
    }

    @Override
    public List<StoredDocument> queryPool(String poolName, Set<DocumentType> types) {
        before("query");
        return super.queryPool(poolName, types);
    }

    @Override
    public PoolChanges changesSince(String poolName, Set<DocumentType> types, long position) {
        before("query");
        return super.changesSince(poolName, types, position);
    }

    @Override
    public String replaceIfMatch(ObjectNode document, String expectedEtag) {
        before("replace");
        return super.replaceIfMatch(document, expectedEtag);
    }

    @Override
    public String create(ObjectNode document) {
        before("create");
        return super.create(document);
    }

    @Override
    public int purgeExpired() {
        before("purge");
        return super.purgeExpired();
    }

    @Override
    public String describe() {
        return "a simulated store with faults";
    }
}
