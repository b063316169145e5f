package io.hpcscale.scaler.metrics;

import io.hpcscale.common.metrics.CycleMetrics;
import io.hpcscale.common.metrics.Health;
import io.hpcscale.common.store.StoreUsage;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.InstanceCategory;
import io.hpcscale.scaler.run.LeaseStatus;
import io.hpcscale.scaler.run.PoolCensus;
import io.hpcscale.scaler.run.PoolOutcome;
import io.hpcscale.scaler.run.ScalerEvent;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scaler's metrics, from each cycle's outcome: instances by pool and state, demand, actions and refusals, backoff,
 * the agents' freshness and the lease; and, through {@link #metered}, every call to the cloud. Labels are pool names
 * and fixed vocabularies (states, event kinds, outcomes), never messages.
 */
public final class ScalerMetrics {
    private final CycleMetrics cycles;
    private final Health health;
    private final Gauge instances;
    private final Gauge queuedJobs;
    private final Gauge demandedNodes;
    private final Gauge target;
    private final Gauge backoff;
    private final Gauge agentReadAge;
    private final Gauge leaseHeld;
    private final Counter actions;
    private final Counter cloudCalls;
    private boolean wasActive;

    public ScalerMetrics(PrometheusRegistry registry, Health health) {
        this.health = health;
        cycles = new CycleMetrics(registry, health);
        instances = Gauge.builder().name("hpcscale_instances")
                .help("Instances by pool and state: running-busy, running-free, booting, draining, stopping, "
                        + "stopped, hibernated, failed, unknown, evicted.")
                .labelNames("pool", "state").register(registry);
        queuedJobs = Gauge.builder().name("hpcscale_queued_jobs").help("Jobs queued for the pool.")
                .labelNames("pool").register(registry);
        demandedNodes = Gauge.builder().name("hpcscale_demanded_nodes")
                .help("Nodes the queued jobs need beyond those running or booting, within max.")
                .labelNames("pool").register(registry);
        target = Gauge.builder().name("hpcscale_target_instances")
                .help("A fixed pool's target count, as read in the last cycle.").labelNames("pool").register(registry);
        backoff = Gauge.builder().name("hpcscale_pool_backoff")
                .help("1 while the pool starts nothing (failed boots, no capacity, quota, evictions), else 0.")
                .labelNames("pool").register(registry);
        agentReadAge = Gauge.builder().name("hpcscale_agent_read_age_seconds")
                .help("Seconds since an agent serving the pool last read its scheduler successfully.")
                .labelNames("pool").register(registry);
        leaseHeld = Gauge.builder().name("hpcscale_lease_held")
                .help("1 while this scaler holds the lease and acts, 0 on standby.").register(registry);
        actions = Counter.builder().name("hpcscale_actions_total")
                .help("Actions and refusals by pool, action (start, stop, drain, evicted, backoff...) and outcome.")
                .labelNames("pool", "action", "outcome").register(registry);
        cloudCalls = Counter.builder().name("hpcscale_cloud_requests_total")
                .help("Calls to the cloud by pool, call (list, start, stop, create, tidy, vm-shape) and status (ok, "
                        + "partial, throttled, denied, not-found, capacity, quota, failed).")
                .labelNames("pool", "call", "status").register(registry);
    }

    /** The pool's provider, counting its calls. */
    public CloudProvider metered(String pool, CloudProvider provider) {
        return new MeteredCloudProvider(provider, pool, cloudCalls);
    }

    public void cycle(CycleOutcome outcome, Duration took, StoreUsage storeUsage) {
        lease(outcome.lease());
        if (outcome.standby()) {
            // A standby knows nothing current of the pools: the active scaler's figures are the ones to sum, and a
            // frozen copy here would double them, or hide a stale agent behind an age that no longer grows.
            for (Gauge perPool : List.of(instances, queuedJobs, demandedNodes, target, backoff, agentReadAge)) {
                perPool.clear();
            }
            health.degraded(Map.of());
            return;
        }
        boolean leaseUnknown = outcome.lease() != null && outcome.lease().state() == LeaseStatus.State.UNKNOWN;
        String kind = outcome.error() != null ? "store" : leaseUnknown ? "lease"
                : outcome.pools().stream().anyMatch(p -> p.census() == null || !p.census().instancesKnown())
                        ? "cloud" : outcome.failed() ? "action" : null;
        String why = outcome.error() != null ? outcome.error()
                : leaseUnknown ? "the lease could not be read or renewed: " + outcome.lease().problem()
                : outcome.pools().stream().filter(PoolOutcome::failed)
                        .map(p -> "pool " + p.pool() + ": " + p.problem()).findFirst().orElse(null);
        cycles.cycle(outcome.at(), took, kind, why, storeUsage);
        Map<String, String> protectedPools = new TreeMap<>();
        for (PoolOutcome pool : outcome.pools()) {
            pool.events().forEach(e -> count(pool.pool(), e));
            PoolCensus census = pool.census();
            if (census == null) {
                continue;
            }
            if (census.protectedBecause() != null) {
                protectedPools.put("pool " + pool.pool(), census.protectedBecause());
            }
            queuedJobs.labelValues(pool.pool()).set(census.queuedJobs());
            backoff.labelValues(pool.pool()).set(census.backingOff() ? 1 : 0);
            if (census.target() != null) {
                target.labelValues(pool.pool()).set(census.target());
            }
            if (census.agentReadAt() != null) {
                agentReadAge.labelValues(pool.pool()).set(
                        Math.max(0, Duration.between(census.agentReadAt(), outcome.at()).toSeconds()));
            }
            if (census.instancesKnown()) {
                demandedNodes.labelValues(pool.pool()).set(census.demandedNodes());
                for (InstanceCategory category : InstanceCategory.values()) {
                    instances.labelValues(pool.pool(), category.wireName()).set(census.count(category));
                }
            }
        }
        health.degraded(protectedPools);
    }

    private void count(String pool, ScalerEvent event) {
        actions.labelValues(pool, event.kind().wireName(), event.outcome().type().wireName()).inc();
    }

    private void lease(LeaseStatus lease) {
        if (lease == null) {
            return;
        }
        boolean active = lease.state() == LeaseStatus.State.ACTIVE;
        leaseHeld.set(active ? 1 : 0);
        if (active) {
            health.leaseHeld();
        } else if (wasActive && lease.state() == LeaseStatus.State.STANDBY) {
            health.leaseLost("now held by " + lease.holder());
        }
        // A lease that cannot be read says nothing about who holds it: the cycle fails (kind lease) instead.
        if (lease.state() != LeaseStatus.State.UNKNOWN) {
            wasActive = active;
        }
    }
}
