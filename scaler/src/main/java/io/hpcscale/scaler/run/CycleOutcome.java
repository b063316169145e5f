package io.hpcscale.scaler.run;

import java.time.Instant;
import java.util.List;

/**
 * What one scaler cycle did.
 *
 * @param error why the cycle could not run at all (the store could not be read), or null
 */
public record CycleOutcome(Instant at, List<PoolOutcome> pools, String error) {
    public CycleOutcome {
        pools = List.copyOf(pools);
    }
}
