package io.hpcscale.scaler.run;

import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import java.time.Instant;
import java.util.List;

/**
 * The documents a pool's actuation writes for the agent (drain requests, answered power requests, the drains
 * marker) and re-reads before a call (a node's vms document and drain request), each write's outcome as an
 * event's. Drains asked or withdrawn this cycle are announced once, through the marker the agents check every few
 * seconds.
 */
final class PoolDocuments {
    private final DocumentStore store;
    private final String pool;
    private final Instant now;
    private boolean drainsChanged;

    PoolDocuments(DocumentStore store, String pool, Instant now) {
        this.store = store;
        this.pool = pool;
        this.now = now;
    }

    Outcome requestDrain(String node, String reason) {
        return drainWrite(() -> store.upsert(List.of(DrainDocument.request(pool, node, reason, now))));
    }

    Outcome withdrawDrain(String node) {
        return drainWrite(() -> store.delete(List.of(new DocumentKey(pool, DrainDocument.idFor(node)))));
    }

    Outcome forgetPowerRequest(String node) {
        return write(() -> store.delete(List.of(new DocumentKey(pool, PowerDocument.idFor(node)))));
    }

    /**
     * Forgets the health check of a node whose instance was stopped, or is about to resume from hibernation: its
     * next boot or resume checks again, and until that writes, the last boot's result must not stand for it.
     */
    Outcome forgetHealthCheck(String node) {
        return write(() -> store.delete(List.of(HealthDocument.keyFor(node))));
    }

    /** The node's vms document as the agent wrote it in {@code nodePool}, or null. */
    VmDocument vm(String nodePool, String node) {
        return store.read(new DocumentKey(nodePool, CosmosIds.encode(node)), VmDocument.class)
                .map(DocumentStore.Versioned::document).orElse(null);
    }

    /** The node's drain request, or null. */
    DrainDocument drain(String node) {
        return store.read(new DocumentKey(pool, DrainDocument.idFor(node)), DrainDocument.class)
                .map(DocumentStore.Versioned::document).orElse(null);
    }

    /** Tells the agents, through the marker they check every few seconds, that a drain was asked or withdrawn. */
    void announceDrains() {
        if (drainsChanged) {
            write(() -> store.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, now))));
        }
    }

    private Outcome drainWrite(Runnable write) {
        Outcome outcome = write(write);
        drainsChanged |= outcome.ok();
        return outcome;
    }

    private static Outcome write(Runnable write) {
        try {
            write.run();
            return Outcome.OK;
        } catch (StoreException e) {
            return Outcome.failed(e.getMessage());
        }
    }
}
