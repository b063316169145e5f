package io.hpcscale.common.model;

import java.time.Instant;
import java.util.Objects;

/** The scaler asks the agent to take a node out of service so that its instance can be stopped. */
public record DrainDocument(String id, String poolName, String name, String reason, Instant requestedAt)
        implements ClusterLoadDocument {

    public DrainDocument {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(poolName, "poolName");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(requestedAt, "requestedAt");
    }

    public static DrainDocument request(String poolName, String nodeName, String reason, Instant requestedAt) {
        return new DrainDocument(idFor(nodeName), poolName, nodeName, reason, requestedAt);
    }

    public static String idFor(String nodeName) {
        return "drain-" + CosmosIds.encode(nodeName);
    }

    @Override
    public DocumentType type() {
        return DocumentType.DRAINS;
    }
}
