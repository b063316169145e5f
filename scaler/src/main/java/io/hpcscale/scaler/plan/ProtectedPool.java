package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.documents.BootHealth;
import io.hpcscale.scaler.documents.StopKind;
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

    /**
     * How many instances the pool may start this cycle as far as its boots go: any, one probe, or none. The failed
     * boots this cycle's plan stops count already, although the actuation counts them only once stopped: otherwise
     * the cycle that protects the pool, or one whose probe failed, would start again at once.
     */
    static int allowedStarts(PoolView view, PlanDraft draft) {
        BootHealth health = view.memory().bootHealth();
        long failing = failingThisCycle(draft);
        if (!health.protectedNow() && health.failedInARow() + failing < view.pool().protection().after()) {
            return Integer.MAX_VALUE;
        }
        boolean probe = health.protectedNow() && failing == 0 && view.booting().isEmpty()
                && draft.startsPlanned() == 0 && !view.now().isBefore(probeAt(health, view.pool()));
        return probe ? 1 : 0;
    }

    /** Why the pool starts nothing this cycle, when {@link #allowedStarts} says none. */
    static String refusal(PoolView view, PlanDraft draft) {
        BootHealth health = view.memory().bootHealth();
        if (!health.protectedNow()) {
            return "the failed boots stopped this cycle make " + (health.failedInARow() + failingThisCycle(draft))
                    + " in a row (protectAfter " + view.pool().protection().after() + "): the pool is protected "
                    + "once they are counted, and starts nothing";
        }
        return describe(health, view.pool());
    }

    private static long failingThisCycle(PlanDraft draft) {
        return draft.planned(Plan.Stop.class).stream().filter(stop -> stop.kind().failedBoot()).count();
    }

    /** Said when a boot succeeds in a protected pool. */
    static String lifted(BootHealth health, PoolConfig pool) {
        return "an instance booted: pool " + pool.name() + " is no longer protected (it was since "
                + health.protectedSince() + ", after " + health.failedInARow() + " failed boots; probes every "
                + Durations.format(pool.protection().probeAfter()) + ")";
    }
}
