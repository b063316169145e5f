package io.hpcscale.common.metrics;

import io.hpcscale.common.store.StoreUsage;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.time.Instant;

/**
 * What every hpcscale service reports of its cycles: how long they take, which fail and why (a bounded set of
 * kinds, never a message), and what they cost the store. Also keeps {@link Health} up to date.
 */
public final class CycleMetrics {
    private final Histogram duration;
    private final Counter cycles;
    private final Counter errors;
    private final Gauge lastSuccess;
    private final Counter storeRequests;
    private final Counter storeRequestUnits;
    private final Health health;
    private StoreUsage lastUsage = StoreUsage.NONE;

    public CycleMetrics(PrometheusRegistry registry, Health health) {
        this.health = health;
        duration = Histogram.builder().name("hpcscale_cycle_duration_seconds")
                .help("How long one cycle took, from the first read to the last write.")
                .classicOnly().classicUpperBounds(0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)
                .register(registry);
        cycles = Counter.builder().name("hpcscale_cycles_total").help("Cycles run, failed or not.")
                .register(registry);
        errors = Counter.builder().name("hpcscale_cycle_errors_total")
                .help("Cycles that failed, by kind: scheduler or store (agents); store, lease, cloud or action (scaler).")
                .labelNames("kind").register(registry);
        lastSuccess = Gauge.builder().name("hpcscale_last_success_timestamp_seconds")
                .help("When a cycle last succeeded, in seconds since the epoch.").register(registry);
        storeRequests = Counter.builder().name("hpcscale_store_requests_total")
                .help("Requests made to the ClusterLoad store.").register(registry);
        storeRequestUnits = Counter.builder().name("hpcscale_store_request_units_total")
                .help("Request units the store charged (Cosmos DB; 0 for SQLite).").register(registry);
    }

    /** @param errorKind null for a cycle that succeeded, else one of a small fixed set */
    public synchronized void cycle(Instant at, Duration took, String errorKind, String why, StoreUsage usage) {
        cycles.inc();
        duration.observe(took.toMillis() / 1000.0);
        if (errorKind == null) {
            lastSuccess.set(at.toEpochMilli() / 1000.0);
            health.cycleSucceeded();
        } else {
            errors.labelValues(errorKind).inc();
            health.cycleFailed(why);
        }
        StoreUsage spent = usage.minus(lastUsage);
        lastUsage = usage;
        storeRequests.inc(Math.max(0, spent.requests()));
        storeRequestUnits.inc(Math.max(0, spent.requestUnits()));
    }
}
