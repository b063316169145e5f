package io.hpcscale.scaler.documents;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.time.Instant;
import java.util.Objects;

/**
 * How many instances a pool of {@code target = fixed} keeps, for pools whose provider has no place of its own to hold
 * it (an Azure pool keeps it in a resource-group tag). Written by {@code hpcscale-scaler set-capacity} and by the
 * scaler when a node removes itself; read by the scaler every cycle.
 *
 * @param setBy who set it, for {@code status}: "set-capacity on manager1", "removal of instance vmss_4"
 */
public record PoolTargetDocument(String poolName, int target, Instant setAt, String setBy)
        implements ClusterLoadDocument {

    public PoolTargetDocument {
        Objects.requireNonNull(poolName, "poolName");
        if (target < 0) {
            throw new IllegalArgumentException("a pool's target cannot be negative: " + target);
        }
    }

    public static String idFor(String poolName) {
        return "target-" + CosmosIds.encode(poolName);
    }

    public static DocumentKey keyFor(String poolName) {
        return new DocumentKey(poolName, idFor(poolName));
    }

    @Override
    public String id() {
        return idFor(poolName);
    }

    @Override
    public DocumentType type() {
        return DocumentType.TARGET;
    }
}
