package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.ScalerStateDocument;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Instant;

/** Counts a failed boot once its instance is known to be stopped; enough in a row put the pool in backoff. */
public final class BootFailures {
    private BootFailures() {
    }

    public static ScalerStateDocument counted(ScalerStateDocument state, PoolConfig pool, Instant now) {
        int failures = state.consecutiveBootFailures() + 1;
        if (failures < pool.bootFailuresBeforeBackoff()) {
            return state.withBootFailures(failures);
        }
        return state.backoff(now.plus(pool.capacityBackoff()), failures + " boots in a row failed");
    }
}
