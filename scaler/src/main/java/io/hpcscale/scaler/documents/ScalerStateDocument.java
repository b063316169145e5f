package io.hpcscale.scaler.documents;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What the scaler remembers about one pool between cycles: per instance when it was started or stopped and why,
 * boots in progress, failed boots, backoff and throttle deadlines, actions whose outcome is not known yet, and the
 * last action. It lives in the store so that a scaler killed at any moment, or a standby taking over, continues where
 * the last one stopped. It is replaced only with a matching ETag.
 *
 * @param instances               by instance id, in id order
 * @param consecutiveBootFailures failed boots since the last boot that succeeded
 * @param backoffUntil            the pool starts nothing before this, or null
 * @param throttledUntil          the pool's cloud asked not to be called before this, or null
 * @param throttleReason          what the cloud said when it asked (the budget it ran out of), or null
 * @param pendingCreate           instances asked of the cloud whose creation is not confirmed yet, or null
 * @param lastAction              the most recent action, or null
 * @param evictions               instances the cloud took back (Spot evictions) since the pool was first scaled
 * @param evictionRounds          the most recent cycles that found evictions (as many as the pool's
 *                                evictionRoundsBeforeBackoff): how the scaler tells repeated evictions from one storm
 * @param removals                instances removed at a node's request, by instance id, kept for
 *                                {@link #REMOVALS_KEPT_FOR} after the request so a message delivered twice is
 *                                carried out once
 * @param grownAt                 when hpcscale last asked the cloud for more instances, or null: instances that
 *                                vanish soon after are the cloud's overprovisioned extras, not evictions
 * @param sealedScaleSets         for a pool spread over several scale sets, those sealed (no growth asked of them
 *                                again), each with when and why
 * @param growing                 for a pool spread over several scale sets, those asked to grow that have not yet
 *                                been seen running what they were asked, by name
 * @param idleLearning            the pool's recent arrivals of work and boot times, from which an adaptive idle
 *                                timeout is chosen
 */
public record ScalerStateDocument(
        String poolName,
        SortedMap<String, InstanceRecord> instances,
        int consecutiveBootFailures,
        Instant backoffUntil,
        String backoffReason,
        Instant throttledUntil,
        String throttleReason,
        PendingCreate pendingCreate,
        LastAction lastAction,
        long evictions,
        List<Instant> evictionRounds,
        SortedMap<String, RemovalRecord> removals,
        SortedMap<String, String> sealedScaleSets,
        Instant grownAt,
        SortedMap<String, GrowthAsked> growing,
        SortedMap<String, GangWait> gangs,
        BootHealth bootHealth,
        IdleLearning idleLearning) implements ClusterLoadDocument {

    /** A create written down before the call: instances found active that no record explains are attributed to it. */
    public record PendingCreate(int count, Instant at, String reason) {
    }

    private static final Class<?> FROZEN = Collections.unmodifiableSortedMap(new TreeMap<>()).getClass();

    /** Longer than a queue message lives (7 days by default), so any redelivery finds its record. */
    public static final Duration REMOVALS_KEPT_FOR = Duration.ofDays(8);


    public ScalerStateDocument {
        Objects.requireNonNull(poolName, "poolName");
        // The instances of a 5,000-instance pool were copied at every change of any field, a third of a replay's time
        // at that size. An unmodifiable sorted map is one this record made from its own copy (callers hand in maps
        // of their own, never such a view), so it is taken as it is.
        instances = instances.getClass() == FROZEN ? instances
                : Collections.unmodifiableSortedMap(new TreeMap<>(instances));
        evictionRounds = evictionRounds == null ? List.of() : List.copyOf(evictionRounds);
        removals = Collections.unmodifiableSortedMap(removals == null ? new TreeMap<>() : new TreeMap<>(removals));
        sealedScaleSets = Collections.unmodifiableSortedMap(sealedScaleSets == null ? new TreeMap<>()
                : new TreeMap<>(sealedScaleSets));
        growing = Collections.unmodifiableSortedMap(growing == null ? new TreeMap<>() : new TreeMap<>(growing));
        gangs = Collections.unmodifiableSortedMap(gangs == null ? new TreeMap<>() : new TreeMap<>(gangs));
        bootHealth = bootHealth == null ? BootHealth.NONE : bootHealth;
        idleLearning = idleLearning == null ? IdleLearning.NONE : idleLearning;
    }

    public static ScalerStateDocument empty(String poolName) {
        return new ScalerStateDocument(poolName, new TreeMap<>(), 0, null, null, null, null, null, null, 0, List.of(),
                new TreeMap<>(), new TreeMap<>(), null, new TreeMap<>(), new TreeMap<>(), BootHealth.NONE, IdleLearning.NONE);
    }

    public static String idFor(String poolName) {
        return "state-" + CosmosIds.encode(poolName);
    }

    @Override
    public String id() {
        return idFor(poolName);
    }

    @Override
    public DocumentType type() {
        return DocumentType.SCALER_STATE;
    }

    public Optional<InstanceRecord> instance(String instanceId) {
        return Optional.ofNullable(instances.get(instanceId));
    }

    /** When the instance's boot began, or null if it is not booting. */
    public Instant bootingSince(String instanceId) {
        InstanceRecord record = instances.get(instanceId);
        return record == null ? null : record.bootingSince();
    }

    public boolean inBackoff(Instant now) {
        return backoffUntil != null && now.isBefore(backoffUntil);
    }

    public boolean throttled(Instant now) {
        return throttledUntil != null && now.isBefore(throttledUntil);
    }

    public ScalerStateDocument withInstance(String instanceId, InstanceRecord record) {
        SortedMap<String, InstanceRecord> changed = new TreeMap<>(instances);
        changed.put(instanceId, record);
        return new ScalerStateDocument(poolName, changed, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, removals,
                sealedScaleSets, grownAt, growing, gangs, bootHealth, idleLearning);
    }

    /** All instance records at once: one copy, where a record at a time would copy the map each time. */
    public ScalerStateDocument withInstances(SortedMap<String, InstanceRecord> records) {
        return new ScalerStateDocument(poolName, records, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, removals,
                sealedScaleSets, grownAt, growing, gangs, bootHealth, idleLearning);
    }

    /** Forgets instances the cloud no longer has. */
    public ScalerStateDocument onlyInstances(Set<String> instanceIds) {
        SortedMap<String, InstanceRecord> kept = new TreeMap<>(instances);
        kept.keySet().retainAll(instanceIds);
        return new ScalerStateDocument(poolName, kept, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, removals,
                sealedScaleSets, grownAt, growing, gangs, bootHealth, idleLearning);
    }

    public ScalerStateDocument withBootFailures(int failures) {
        return new ScalerStateDocument(poolName, instances, failures, backoffUntil, backoffReason, throttledUntil,
                throttleReason, pendingCreate, lastAction, evictions, evictionRounds, removals,
                sealedScaleSets, grownAt,
                growing, gangs, bootHealth, idleLearning);
    }

    /** Starts nothing until {@code until}; the count of failed boots begins again. */
    public ScalerStateDocument backoff(Instant until, String reason) {
        return new ScalerStateDocument(poolName, instances, 0, until, reason, throttledUntil, throttleReason,
                pendingCreate, lastAction, evictions, evictionRounds, removals, sealedScaleSets, grownAt,
                growing, gangs, bootHealth, idleLearning);
    }

    /** Calls no cloud of the pool before {@code until}, for the reason given (said in status). */
    public ScalerStateDocument throttle(Instant until, String reason) {
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                until, reason, pendingCreate, lastAction, evictions, evictionRounds, removals, sealedScaleSets,
                grownAt, growing, gangs, bootHealth, idleLearning);
    }

    public ScalerStateDocument withPendingCreate(PendingCreate pending) {
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pending, lastAction, evictions, evictionRounds, removals,
                sealedScaleSets, grownAt, growing, gangs, bootHealth, idleLearning);
    }

    public ScalerStateDocument withLastAction(LastAction action) {
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, action, evictions, evictionRounds, removals,
                sealedScaleSets, grownAt, growing, gangs, bootHealth, idleLearning);
    }

    public ScalerStateDocument withIdleLearning(IdleLearning learning) {
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, removals,
                sealedScaleSets, grownAt, growing, gangs, bootHealth, learning);
    }

    /** One more instance the cloud took back. */
    public ScalerStateDocument withEviction() {
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions + 1, evictionRounds, removals,
                sealedScaleSets, grownAt, growing, gangs, bootHealth, idleLearning);
    }

    /** A cycle that found evictions; only the most recent {@code keep} rounds are kept. */
    public ScalerStateDocument withEvictionRound(Instant at, int keep) {
        List<Instant> rounds = new ArrayList<>(evictionRounds);
        rounds.add(at);
        if (rounds.size() > keep) {
            rounds = rounds.subList(rounds.size() - keep, rounds.size());
        }
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, rounds, removals,
                sealedScaleSets, grownAt, growing, gangs, bootHealth, idleLearning);
    }

    /** How many cycles that found evictions fall at or after {@code since}. */
    public int evictionRoundsSince(Instant since) {
        return (int) evictionRounds.stream().filter(at -> !at.isBefore(since)).count();
    }

    /** A removal taken on or brought up to date. */
    public ScalerStateDocument withRemoval(String instanceId, RemovalRecord record) {
        SortedMap<String, RemovalRecord> changed = new TreeMap<>(removals);
        changed.put(instanceId, record);
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, changed,
                sealedScaleSets, grownAt, growing, gangs, bootHealth, idleLearning);
    }

    /** A fixed pool's count as read, less the removals taken on that it does not reflect yet. */
    public int countLessUnwrittenRemovals(int countRead) {
        int pending = (int) removals.values().stream().filter(r -> r.pendingOn(countRead)).count();
        return Math.max(0, countRead - pending);
    }

    /**
     * Removals older than {@link #REMOVALS_KEPT_FOR} forgotten, once their instance is gone: no message of theirs can
     * come back, and none is still leaving.
     *
     * @param listed the instance ids the cloud lists now
     */
    public ScalerStateDocument withoutOldRemovals(Instant now, Set<String> listed) {
        SortedMap<String, RemovalRecord> kept = new TreeMap<>(removals);
        kept.entrySet().removeIf(e -> e.getValue().at().plus(REMOVALS_KEPT_FOR).isBefore(now)
                && !listed.contains(e.getKey()));
        if (kept.size() == removals.size()) {
            return this;
        }
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, kept,
                sealedScaleSets, grownAt, growing, gangs, bootHealth, idleLearning);
    }

    public Optional<RemovalRecord> removal(String instanceId) {
        return Optional.ofNullable(removals.get(instanceId));
    }

    /** A scale set of the pool sealed: no growth is asked of it again. */
    public ScalerStateDocument withSealed(String scaleSet, String when) {
        SortedMap<String, String> sealed = new TreeMap<>(sealedScaleSets);
        sealed.put(scaleSet, when);
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, removals, sealed,
                grownAt, growing, gangs, bootHealth, idleLearning);
    }

    /** hpcscale asks the cloud for more instances now. */
    public ScalerStateDocument grown(Instant at) {
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, removals,
                sealedScaleSets, at, growing, gangs, bootHealth, idleLearning);
    }

    /** The scale sets asked to grow and not yet seen running what they were asked, as the provider now knows them. */
    public ScalerStateDocument withGrowing(Map<String, GrowthAsked> now) {
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, removals,
                sealedScaleSets, grownAt, new TreeMap<>(now), gangs, bootHealth, idleLearning);
    }

    /** The gang jobs waiting for the nodes started for them, by job id, as this cycle leaves them. */
    public ScalerStateDocument withGangs(Map<String, GangWait> now) {
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, removals,
                sealedScaleSets, grownAt, growing, new TreeMap<>(now), bootHealth, idleLearning);
    }

    /** How the pool's boots have gone, as this cycle leaves it. */
    public ScalerStateDocument withBootHealth(BootHealth health) {
        return new ScalerStateDocument(poolName, instances, consecutiveBootFailures, backoffUntil, backoffReason,
                throttledUntil, throttleReason, pendingCreate, lastAction, evictions, evictionRounds, removals,
                sealedScaleSets, grownAt, growing, gangs, health, idleLearning);
    }
}
