package io.hpcscale.scaler.report;

import io.hpcscale.scaler.documents.LeaseDocument;
import java.time.Instant;
import java.util.List;

/**
 * What {@code status} shows: every pool, and which scaler holds the lease.
 *
 * @param lease the lease as stored, or null when no scaler has taken it yet
 * @param error why nothing could be read (the store), or null
 */
public record ScalerStatus(Instant at, LeaseDocument lease, List<PoolStatus> pools, String error) {
    public ScalerStatus {
        pools = List.copyOf(pools);
    }

    /** Whether a pool could not be read, so that scripts can tell from the exit status. */
    public boolean incomplete() {
        return error != null || pools.stream().anyMatch(p -> p.problem() != null);
    }
}
