package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A store that passes every call to another: extend it to change or watch one call (a store that fails on the
 * tenth write, one that counts writes) without repeating the other nine.
 */
public abstract class ForwardingClusterLoadStore implements ClusterLoadStore {
    protected final ClusterLoadStore delegate;

    protected ForwardingClusterLoadStore(ClusterLoadStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public void upsertAll(Collection<ObjectNode> documents) {
        delegate.upsertAll(documents);
    }

    @Override
    public void deleteAll(Collection<DocumentKey> keys) {
        delegate.deleteAll(keys);
    }

    @Override
    public Optional<StoredDocument> read(DocumentKey key) {
        return delegate.read(key);
    }

    @Override
    public List<StoredDocument> query(DocumentType type, String poolName) {
        return delegate.query(type, poolName);
    }

    @Override
    public List<StoredDocument> queryByType(DocumentType type) {
        return delegate.queryByType(type);
    }

    @Override
    public List<StoredDocument> queryPool(String poolName, Set<DocumentType> types) {
        return delegate.queryPool(poolName, types);
    }

    @Override
    public PoolChanges changesSince(String poolName, Set<DocumentType> types, long position) {
        return delegate.changesSince(poolName, types, position);
    }

    @Override
    public PoolChanges eventsSince(String poolName, Instant from, long position) {
        return delegate.eventsSince(poolName, from, position);
    }

    @Override
    public List<String> setupProblems() {
        return delegate.setupProblems();
    }

    @Override
    public StoreUsage usage() {
        return delegate.usage();
    }

    @Override
    public String replaceIfMatch(ObjectNode document, String expectedEtag) {
        return delegate.replaceIfMatch(document, expectedEtag);
    }

    @Override
    public String create(ObjectNode document) {
        return delegate.create(document);
    }

    @Override
    public int purgeExpired() {
        return delegate.purgeExpired();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
