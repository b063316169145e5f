package io.hpcscale.scaler.documents;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentType;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One action or refusal of the scaler, for audit.
 *
 * @param ttlSeconds how long the store keeps it
 */
public record EventDocument(
        String id,
        String poolName,
        Instant at,
        String action,
        List<String> instances,
        String reason,
        String outcome,
        long ttlSeconds) implements ClusterLoadDocument {

    public EventDocument {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(poolName, "poolName");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(action, "action");
        instances = List.copyOf(instances);
    }

    @Override
    public DocumentType type() {
        return DocumentType.EVENTS;
    }
}
