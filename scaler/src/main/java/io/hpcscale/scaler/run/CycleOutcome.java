package io.hpcscale.scaler.run;

import java.time.Instant;
import java.util.List;

/**
 * What one scaler cycle did.
 *
 * @param lease the lease as this cycle found it, or null when the cycle did not need it (planning, dry run)
 * @param error why the cycle could not run at all (the store could not be read), or null
 */
public record CycleOutcome(Instant at, LeaseStatus lease, List<PoolOutcome> pools, String error) {
    public CycleOutcome {
        pools = List.copyOf(pools);
    }

    /** Whether another scaler holds the lease, so that this one did nothing. */
    public boolean standby() {
        return lease != null && lease.state() == LeaseStatus.State.STANDBY;
    }

    public boolean failed() {
        return error != null || pools.stream().anyMatch(PoolOutcome::failed);
    }
}
