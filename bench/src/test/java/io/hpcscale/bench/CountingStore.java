package io.hpcscale.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.ForwardingClusterLoadStore;
import java.util.Collection;

/** Counts the documents written and deleted through a store. */
final class CountingStore extends ForwardingClusterLoadStore {
    long written;
    long deleted;

    CountingStore(ClusterLoadStore delegate) {
        super(delegate);
    }

    void reset() {
        written = 0;
        deleted = 0;
    }

    @Override
    public void upsertAll(Collection<ObjectNode> documents) {
        super.upsertAll(documents);
        written += documents.size();
    }

    @Override
    public void deleteAll(Collection<DocumentKey> keys) {
        super.deleteAll(keys);
        deleted += keys.size();
    }

    @Override
    public String replaceIfMatch(ObjectNode document, String expectedEtag) {
        String etag = super.replaceIfMatch(document, expectedEtag);
        written++;
        return etag;
    }

    @Override
    public String create(ObjectNode document) {
        String etag = super.create(document);
        written++;
        return etag;
    }
}
