package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Instant;

/**
 * The one place a pool enters backoff: it then starts nothing for {@code capacityBackoff}. Three things put it
 * there, each with its own rule: the cloud refusing for capacity or quota (a call said so, or a listing showed a
 * start that failed for it), boots failing {@code bootFailuresBeforeBackoff} times in a row, and Spot evictions found
 * in {@code evictionRoundsBeforeBackoff} cycles within {@code evictionWindow}. The planner and the actuation both
 * meet these; they ask here rather than decide.
 */
public final class PoolBackoff {
    private PoolBackoff() {
    }

    /** The cloud has no room, or no quota: the state in backoff from now, unless it already is. */
    public static ScalerStateDocument afterRefusal(ScalerStateDocument state, PoolConfig pool, Instant now,
            String reason) {
        return state.inBackoff(now) ? state : enter(state, pool, now, reason);
    }

    /**
     * A failed boot, counted once its instance is known to be stopped; enough in a row put the pool in backoff, and
     * the count begins again. The pool's boot health counts it too, across backoffs: enough of those protect the
     * pool ({@link io.hpcscale.scaler.documents.BootHealth}).
     *
     * @param why what failed, for status and the protection's reasons
     */
    public static ScalerStateDocument afterFailedBoot(ScalerStateDocument state, PoolConfig pool, Instant now,
            String why) {
        ScalerStateDocument counted = state.withBootHealth(state.bootHealth().failed(now, why,
                pool.protection().after()));
        int failures = counted.consecutiveBootFailures() + 1;
        if (failures < pool.bootFailuresBeforeBackoff()) {
            return counted.withBootFailures(failures);
        }
        return enter(counted, pool, now, failures + " boots in a row failed");
    }

    /**
     * This cycle found Spot evictions. One storm of them is replaced at once; evictions in enough cycles within the
     * window mean the region keeps taking instances back, and chasing them only costs boots.
     */
    public static ScalerStateDocument afterEvictions(ScalerStateDocument state, PoolConfig pool, Instant now) {
        ScalerStateDocument counted = state.withEvictionRound(now, pool.evictionBackoff().rounds());
        int rounds = counted.evictionRoundsSince(now.minus(pool.evictionBackoff().window()));
        if (rounds < pool.evictionBackoff().rounds() || counted.inBackoff(now)) {
            return counted;
        }
        return enter(counted, pool, now, "Spot evictions in " + rounds + " cycles within "
                + Durations.format(pool.evictionBackoff().window()));
    }

    private static ScalerStateDocument enter(ScalerStateDocument state, PoolConfig pool, Instant now, String reason) {
        return state.backoff(now.plus(pool.capacityBackoff()), reason);
    }
}
