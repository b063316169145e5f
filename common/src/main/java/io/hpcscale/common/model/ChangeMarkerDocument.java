package io.hpcscale.common.model;

import java.util.Objects;
import java.time.Instant;

/**
 * A small document rewritten whenever something others watch has changed, so that they notice within seconds with
 * one cheap point read (about 1 request unit on Cosmos DB) instead of querying: the scaler rewrites
 * {@link #DRAINS} whenever it asks for a drain or withdraws one, and the agent, checking it every few seconds, carries
 * the request out at once rather than at its next full cycle. Readers compare its ETag.
 */
public record ChangeMarkerDocument(String id, Instant changedAt) implements ClusterLoadDocument {
    public static final String DRAINS = "drains-changed";
    public static final DocumentKey DRAINS_KEY = new DocumentKey(META_POOL, DRAINS);

    public ChangeMarkerDocument {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(changedAt, "changedAt");
    }

    @Override
    public String poolName() {
        return META_POOL;
    }

    @Override
    public DocumentType type() {
        return DocumentType.MARKER;
    }
}
