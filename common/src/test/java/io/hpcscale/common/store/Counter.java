package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;

/** A counter document incremented with read → replace-if-ETag-matches, retrying on conflict. */
final class Counter {
    static final DocumentKey KEY = new DocumentKey("_meta", "counter");

    private final ClusterLoadStore store;
    int conflicts;
    int increments;

    Counter(ClusterLoadStore store) {
        this.store = store;
    }

    static void create(ClusterLoadStore store) {
        store.create(ClusterLoadStoreContract.doc("counter", KEY.poolName(), KEY.id(), 0));
    }

    static int value(ClusterLoadStore store) {
        return store.read(KEY).orElseThrow().json().get("Value").asInt();
    }

    void increment() throws InterruptedException {
        while (true) {
            StoredDocument current = store.read(KEY).orElseThrow();
            ObjectNode next = current.json().deepCopy();
            next.put("Value", current.json().get("Value").asInt() + 1);
            Thread.sleep(1);
            try {
                store.replaceIfMatch(next, current.etag());
                increments++;
                return;
            } catch (EtagConflictException e) {
                conflicts++;
            }
        }
    }
}
