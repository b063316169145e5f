package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.ScalerStateDocument;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Instant;

/**
 * The cloud has no room, or no quota, for the pool's instances: the pool starts nothing for {@code capacityBackoff},
 * whether a call said so or a listing showed a start that failed for it.
 */
public final class CapacityBackoff {
    private CapacityBackoff() {
    }

    /** The state in backoff from now, unless it already is. */
    public static ScalerStateDocument entered(ScalerStateDocument state, PoolConfig pool, Instant now, String reason) {
        return state.inBackoff(now) ? state : state.backoff(now.plus(pool.capacityBackoff()), reason);
    }
}
