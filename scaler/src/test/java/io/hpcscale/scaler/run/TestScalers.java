package io.hpcscale.scaler.run;

import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.plan.Planner;
import io.hpcscale.scaler.pool.PoolMatching;
import io.hpcscale.common.time.Monotonic;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Scalers for tests: the real wiring on the calling thread, with a lease of its own, on the clock given. A scaler made
 * on the host of an earlier one stands for that one restarted: the earlier process counts as gone, so the new one
 * takes the lease at once, as the service does on one host; scalers on different hosts compete for it.
 */
public final class TestScalers {
    private static long nextProcess = 1;

    private TestScalers() {
    }

    public static Scaler scaler(List<PoolRuntime> pools, DocumentStore documents, ScalerEvents events, Clock clock,
            boolean dryRun) {
        return scaler(pools, documents, events, clock, dryRun, "test-host");
    }

    /** A scaler on its own host: two of them on one store compete for the lease. */
    public static Scaler scaler(List<PoolRuntime> pools, DocumentStore documents, ScalerEvents events,
            Clock clock, boolean dryRun, String host) {
        return scaler(pools, documents, events, clock, dryRun, host, Runnable::run);
    }

    /** A scaler whose pools run on the executor given, as the service's do. */
    public static Scaler scaler(List<PoolRuntime> pools, DocumentStore documents, ScalerEvents events,
            Clock clock, boolean dryRun, String host, Executor executor) {
        return scaler(pools, documents, events, clock, dryRun, host, executor, RemovalInbox.none(),
                ActionHooks.none());
    }

    /** A scaler that takes nodes' removal requests from {@code removals}. */
    public static Scaler scaler(List<PoolRuntime> pools, DocumentStore documents, ScalerEvents events,
            Clock clock, String host, RemovalInbox removals) {
        return scaler(pools, documents, events, clock, false, host, Runnable::run, removals, ActionHooks.none());
    }

    /** A scaler that runs the administrator's hooks around each pool's actions. */
    public static Scaler scaler(List<PoolRuntime> pools, DocumentStore documents, ScalerEvents events,
            Clock clock, ActionHooks hooks) {
        return scaler(pools, documents, events, clock, false, "test-host", Runnable::run, RemovalInbox.none(), hooks);
    }

    private static synchronized Scaler scaler(List<PoolRuntime> pools, DocumentStore documents,
            ScalerEvents events, Clock clock, boolean dryRun, String host, Executor executor, RemovalInbox removals,
            ActionHooks hooks) {
        ScalerLease lease = new ScalerLease(documents, Duration.ofMinutes(3),
                new LeaseHolder(host, nextProcess++, "test-boot"), pid -> false, Monotonic.following(clock));
        return new Scaler(pools, new Scaler.Wiring(documents, new Planner(Duration.ofMinutes(6), Map.of(),
                PoolMatching.forPools(pools.stream().map(PoolRuntime::config).toList())), events, lease,
                new ActionGate(), new CloudThrottles(), executor, clock, dryRun, removals, Duration.ofHours(1),
                hooks));
    }
}
