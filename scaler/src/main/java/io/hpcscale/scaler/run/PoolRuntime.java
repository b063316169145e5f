package io.hpcscale.scaler.run;

import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.plan.PoolHistory;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Instant;

/** A pool as the scaler runs it: its settings, its provider, and what it remembers between cycles. */
public final class PoolRuntime {
    private final PoolConfig config;
    private final CloudProvider provider;
    private PoolHistory history = PoolHistory.empty();
    private Instant throttledUntil;

    public PoolRuntime(PoolConfig config, CloudProvider provider) {
        this.config = config;
        this.provider = provider;
    }

    public PoolConfig config() {
        return config;
    }

    public String name() {
        return config.name();
    }

    public CloudProvider provider() {
        return provider;
    }

    public PoolHistory history() {
        return history;
    }

    void history(PoolHistory newHistory) {
        this.history = newHistory;
    }

    boolean throttled(Instant now) {
        return throttledUntil != null && now.isBefore(throttledUntil);
    }

    Instant throttledUntil() {
        return throttledUntil;
    }

    void throttle(Instant until) {
        this.throttledUntil = until;
    }
}
