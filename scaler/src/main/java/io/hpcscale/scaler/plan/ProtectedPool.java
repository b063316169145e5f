package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.documents.BootHealth;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Instant;

/**
 * A pool whose boots keep failing (a bad image, a broken size, a dead region) stops starting instances until it is
 * resumed or a probe boots: the words that say so, and when the probe is due. {@link BootHealth} keeps the count.
 */
public final class ProtectedPool {
    private ProtectedPool() {
    }

    /** Why the pool is protected and what to do, for events, status and {@code /healthz}. */
    public static String describe(BootHealth health, PoolConfig pool) {
        return "protected since " + health.protectedSince() + " after " + health.failedInARow()
                + " failed boots in a row (last: " + String.join("; ", health.recentFailures()) + "): it starts no "
                + "instance until hpcscale-scaler resume " + pool.name() + ", or a probe instance at "
                + probeAt(health, pool) + " boots";
    }

    /** When the protected pool may start one probe instance on its own. */
    public static Instant probeAt(BootHealth health, PoolConfig pool) {
        return health.protectedSince().plus(pool.protection().probeAfter());
    }

    /** Said when a boot succeeds in a protected pool. */
    static String lifted(BootHealth health, PoolConfig pool) {
        return "an instance booted: pool " + pool.name() + " is no longer protected (it was since "
                + health.protectedSince() + ", after " + health.failedInARow() + " failed boots; probes every "
                + Durations.format(pool.protection().probeAfter()) + ")";
    }
}
