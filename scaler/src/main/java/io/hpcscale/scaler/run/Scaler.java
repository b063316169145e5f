package io.hpcscale.scaler.run;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.PartitionReads;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoreUsage;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.Planner;
import io.hpcscale.scaler.removal.RemovalMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scaler's cycle: take or renew the lease (a standby does nothing), read the documents once, and run each pool's
 * part (read its state, list, plan, act, record) on the executor, so that one pool's slow operation does not hold
 * up the others. A pool whose previous part is still running is not planned again until it ends. A pool and its
 * fallbacks are one part ({@link GroupCycle}): they share one queue's jobs.
 */
public final class Scaler {
    private static final Logger log = LoggerFactory.getLogger(Scaler.class);
    private static final Duration PURGE_EVERY = Duration.ofHours(1);

    /**
     * What a scaler is made of besides its pools.
     *
     * @param executor runs the pools' parts: a bounded thread pool in the service, the calling thread in tests and
     *                 the simulator (every cycle then ends with all its pools done)
     * @param removals the removal requests of nodes, received once per cycle ({@link RemovalInbox#none()}: none)
     * @param fullReadEvery how often each pool's documents are read whole rather than only what changed
     * @param hooks    the administrator's commands around each pool's actions ({@link ActionHooks#none()}: none)
     */
    public record Wiring(DocumentStore store, Planner planner, ScalerEvents events, ScalerLease lease,
            ActionGate gate, CloudThrottles throttles, Executor executor, Clock clock, boolean dryRun,
            RemovalInbox removals, Duration fullReadEvery, ActionHooks hooks) {
    }

    private record InFlight(CompletableFuture<List<PoolOutcome>> outcomes, Instant since) {
    }

    private final List<PoolRuntime> pools;
    private final List<List<PoolRuntime>> groups;
    private final Wiring wiring;
    private final CycleContext context;
    private final Map<String, InFlight> inFlight = new LinkedHashMap<>();
    private final Map<String, Instant> agentChanges = new LinkedHashMap<>();
    private final Set<String> unservedPools = new HashSet<>();
    private final PartitionReads reads;
    private boolean holding;
    private Instant lastPurge;

    public Scaler(List<PoolRuntime> pools, Wiring wiring) {
        this.pools = List.copyOf(pools);
        this.groups = groups(this.pools);
        this.wiring = wiring;
        this.reads = new PartitionReads(wiring.store(), wiring.clock(), wiring.fullReadEvery());
        this.context = new CycleContext(wiring.store(), new ScalerStateStore(wiring.store()), wiring.planner(),
                wiring.events(), wiring.gate(), wiring.throttles(), wiring.dryRun(), wiring.removals(),
                new UsageRecorder(wiring.store()), wiring.hooks());
        if (!wiring.dryRun()) {
            wiring.gate().requireLease(wiring.lease());
        }
    }

    /** The pools that serve the pool's queue with it, in the order its jobs try them; empty for an unknown pool. */
    public List<PoolRuntime> groupOf(String pool) {
        return groups.stream().filter(g -> g.stream().anyMatch(p -> p.name().equals(pool))).findFirst()
                .map(Scaler::cheapestFirst).orElse(List.of());
    }

    public Planner planner() {
        return context.planner();
    }

    public List<PoolRuntime> pools() {
        return pools;
    }

    public ScalerLease lease() {
        return wiring.lease();
    }

    /** One cycle that waits for every pool's part to end; in dry run every decision is logged and nothing touched. */
    public CycleOutcome runOnce(Instant now) throws InterruptedException {
        return cycle(now, true, null);
    }

    /** One cycle of the service: waits at most {@code waitAtMost} for the pools' parts, which may run on. */
    public CycleOutcome runCycle(Instant now, Duration waitAtMost) throws InterruptedException {
        return cycle(now, true, waitAtMost);
    }

    /** Plans every pool without acting or recording anything, and without the lease: what {@code plan} prints. */
    public CycleOutcome planOnly(Instant now) throws InterruptedException {
        return cycle(now, false, null);
    }

    /** Begins no new call from now on; the calls in flight go on. */
    public void stopActing() {
        wiring.gate().shutDown();
    }

    /**
     * Lets the calls in flight finish, for at most {@code grace}, begins no new one, and gives up the lease.
     *
     * @return whether every pool's part ended within the grace period
     */
    public boolean shutDown(Duration grace) throws InterruptedException {
        wiring.gate().shutDown();
        Instant deadline = wiring.clock().instant().plus(grace);
        boolean finished = true;
        for (Map.Entry<String, InFlight> entry : List.copyOf(inFlight.entrySet())) {
            Duration left = Duration.between(wiring.clock().instant(), deadline);
            try {
                entry.getValue().outcomes().get(Math.max(0, left.toMillis()), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                log.atWarn().addKeyValue(LogFields.POOL, entry.getKey())
                        .log("pool={} its operation begun at {} did not finish within the shutdown grace of {}s",
                                entry.getKey(), entry.getValue().since(), grace.toSeconds());
                finished = false;
            } catch (ExecutionException e) {
                log.atWarn().addKeyValue(LogFields.POOL, entry.getKey())
                        .log("pool={} its last operation failed: {}", entry.getKey(), e.getCause().toString());
            }
        }
        if (finished && !wiring.dryRun()) {
            wiring.lease().release(wiring.clock().instant());
        }
        return finished;
    }

    private CycleOutcome cycle(Instant now, boolean act, Duration waitAtMost) throws InterruptedException {
        StoreUsage before = wiring.store().store().usage();
        long began = System.nanoTime();
        CycleOutcome outcome = cycleOfPools(now, act, waitAtMost);
        if (act) {
            logCycle(outcome, wiring.store().store().usage().minus(before),
                    Duration.ofNanos(System.nanoTime() - began));
        }
        return outcome;
    }

    private static void logCycle(CycleOutcome outcome, StoreUsage cost, Duration took) {
        if (outcome.standby()) {
            log.debug("standby cycle; store: {} requests, {} RU", cost.requests(), cost.requestUnits());
            return;
        }
        long actions = outcome.pools().stream().flatMap(p -> p.events().stream())
                .filter(e -> e.kind().action() && e.outcome().ok()).count();
        log.info(String.format(Locale.ROOT, "cycle: %d pools, %d actions%s; store: %d requests, %.1f RU; %d ms",
                outcome.pools().size(), actions, outcome.failed() ? ", with problems" : "", cost.requests(),
                cost.requestUnits(), took.toMillis()));
    }

    private CycleOutcome cycleOfPools(Instant now, boolean act, Duration waitAtMost) throws InterruptedException {
        LeaseStatus lease = null;
        if (act && !wiring.dryRun()) {
            lease = wiring.lease().acquireOrRenew(now);
            boolean tookOver = lease.state() == LeaseStatus.State.ACTIVE && !holding;
            holding = wiring.lease().holds();
            if (tookOver) {
                // What this scaler read as a standby may lag what the holder it replaces wrote: start afresh.
                reads.forget();
            }
            if (!wiring.lease().holds()) {
                return new CycleOutcome(now, lease, List.of(), lease.problem() == null ? null
                        : "the lease cannot be renewed: " + lease.problem());
            }
        }
        ClusterView view;
        try {
            view = ClusterView.read(reads, pools.stream().map(PoolRuntime::name).toList());
            watchAgents(view);
        } catch (StoreException e) {
            log.warn("cycle skipped: the store cannot be read, so nothing is planned: {}", e.getMessage());
            return new CycleOutcome(now, lease, List.of(), "store: " + e.getMessage());
        }
        Map<String, List<RemovalMessage.Request>> removals = act && !wiring.dryRun()
                ? wiring.removals().receive(pools, now, wiring.events()) : Map.of();
        Map<List<PoolRuntime>, CompletableFuture<List<PoolOutcome>>> started = new LinkedHashMap<>();
        List<PoolOutcome> outcomes = new ArrayList<>();
        for (List<PoolRuntime> group : groups) {
            String key = group.get(0).name();
            InFlight running = act ? inFlight.get(key) : null;
            if (running != null && !running.outcomes().isDone()) {
                group.forEach(pool -> outcomes.add(busy(pool, running.since(), now)));
                continue;
            }
            GroupCycle part = new GroupCycle(cheapestFirst(group).stream().map(p -> new PoolCycle(p, view, now, act,
                    context, removals.getOrDefault(p.name(), List.of()))).toList(), view, now, context);
            CompletableFuture<List<PoolOutcome>> outcome = new CompletableFuture<>();
            started.put(group, outcome);
            if (act) {
                inFlight.put(key, new InFlight(outcome, now));
            }
            wiring.executor().execute(() -> complete(outcome, part, group));
        }
        for (Map.Entry<List<PoolRuntime>, CompletableFuture<List<PoolOutcome>>> entry : started.entrySet()) {
            outcomes.addAll(await(entry.getKey(), entry.getValue(), waitAtMost));
        }
        if (act && !wiring.dryRun()) {
            purgeExpiredEvents(now);
        }
        return new CycleOutcome(now, lease, outcomes, null);
    }

    /**
     * Whether an agent serving these pools wrote a change since the last cycle read the documents: one point read of
     * each such agent's heartbeat (about 1 request unit each on Cosmos DB), cheap enough to ask every few seconds.
     * While some pool has no agent at all (the scaler started first, or a new agent is being set up), the heartbeats
     * are looked for with one query instead, so the first agent to report is acted on at once too. A read that fails
     * says no; the cycle that is due will tell.
     */
    public boolean agentsChanged() {
        try {
            if (!unservedPools.isEmpty()) {
                for (AgentDocument agent : wiring.store().inPool(DocumentType.AGENTS, ClusterLoadDocument.META_POOL,
                        AgentDocument.class)) {
                    if (agent.pools().stream().anyMatch(unservedPools::contains)) {
                        return true;
                    }
                }
            }
            for (Map.Entry<String, Instant> agent : List.copyOf(agentChanges.entrySet())) {
                Instant now = wiring.store().read(new DocumentKey(ClusterLoadDocument.META_POOL, agent.getKey()),
                        AgentDocument.class).map(v -> v.document().lastChangeAt()).orElse(null);
                if (now != null && !now.equals(agent.getValue())) {
                    return true;
                }
            }
        } catch (StoreException e) {
            log.debug("reading the agents' heartbeats failed: {}", e.getMessage());
        }
        return false;
    }

    private void watchAgents(ClusterView view) {
        agentChanges.clear();
        unservedPools.clear();
        pools.forEach(p -> unservedPools.add(p.name()));
        for (AgentDocument agent : view.agents()) {
            agentChanges.put(agent.id(), agent.lastChangeAt());
            unservedPools.removeAll(agent.pools());
        }
    }

    /**
     * Each pool with its fallbacks, in order ({@link io.hpcscale.scaler.pool.PoolConfig#fallbacks}); every other
     * pool alone. A group is planned and acted on as one part, its pools one after the other.
     */
    private static List<List<PoolRuntime>> groups(List<PoolRuntime> pools) {
        Map<String, PoolRuntime> byName = new LinkedHashMap<>();
        pools.forEach(p -> byName.put(p.name(), p));
        Set<String> fallbacks = new HashSet<>();
        pools.forEach(p -> fallbacks.addAll(p.config().fallbacks()));
        List<List<PoolRuntime>> groups = new ArrayList<>();
        for (PoolRuntime pool : pools) {
            if (fallbacks.contains(pool.name())) {
                continue;
            }
            List<PoolRuntime> group = new ArrayList<>();
            group.add(pool);
            pool.config().fallbacks().stream().map(byName::get).filter(Objects::nonNull)
                    .forEach(group::add);
            groups.add(List.copyOf(group));
        }
        return List.copyOf(groups);
    }

    /**
     * A group whose every pool has a price (its setting, or the price list's) is tried cheapest first, so that each
     * job goes to the cheapest pool it fits (pools of one price keep their listed order); otherwise the listed order,
     * primary first. Decided each cycle: a price list refreshed, or a VM size first read, changes it.
     */
    static List<PoolRuntime> cheapestFirst(List<PoolRuntime> group) {
        if (group.size() < 2) {
            return group;
        }
        Map<PoolRuntime, Double> prices = new LinkedHashMap<>();
        for (PoolRuntime pool : group) {
            Double price = pool.pricePerHour();
            if (price == null) {
                return group;
            }
            prices.put(pool, price);
        }
        return group.stream().sorted(Comparator.comparingDouble(prices::get)).toList();
    }

    private static void complete(CompletableFuture<List<PoolOutcome>> outcome, GroupCycle part,
            List<PoolRuntime> group) {
        try {
            outcome.complete(part.run());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome.complete(group.stream().map(p -> new PoolOutcome(p.name(), null, List.of(), "interrupted"))
                    .toList());
        } catch (RuntimeException e) {
            log.atError().addKeyValue(LogFields.POOL, group.get(0).name()).setCause(e)
                    .log("pool={} its cycle failed unexpectedly; the next cycle tries again", group.get(0).name());
            outcome.complete(group.stream().map(p -> new PoolOutcome(p.name(), null, List.of(),
                    "unexpected failure: " + e)).toList());
        }
    }

    private List<PoolOutcome> await(List<PoolRuntime> group, CompletableFuture<List<PoolOutcome>> outcome,
            Duration waitAtMost) throws InterruptedException {
        try {
            return waitAtMost == null ? outcome.get()
                    : outcome.get(Math.max(1, waitAtMost.toMillis()), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return group.stream().map(p -> new PoolOutcome(p.name(), null, List.of(), null)).toList();
        } catch (ExecutionException e) {
            return group.stream().map(p -> new PoolOutcome(p.name(), null, List.of(), "unexpected failure: "
                    + e.getCause())).toList();
        }
    }

    private PoolOutcome busy(PoolRuntime pool, Instant since, Instant now) {
        ScalerEvent event = new ScalerEvent(now, pool.name(), EventKind.BUSY, List.of(), "its operation begun at "
                + since + " is still running; the pool is planned again once it ends", Outcome.REFUSED);
        wiring.events().refusal(event);
        return new PoolOutcome(pool.name(), null, List.of(event), null);
    }

    private void purgeExpiredEvents(Instant now) {
        if (lastPurge != null && now.isBefore(lastPurge.plus(PURGE_EVERY))) {
            return;
        }
        lastPurge = now;
        try {
            int purged = wiring.store().store().purgeExpired();
            log.debug("purged {} expired documents", purged);
        } catch (StoreException e) {
            log.warn("purging expired events failed: {}", e.getMessage());
        }
    }
}
