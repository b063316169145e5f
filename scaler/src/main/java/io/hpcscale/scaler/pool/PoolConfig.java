package io.hpcscale.scaler.pool;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One pool's scaling settings.
 *
 * @param shapeSettings             the VM shape as the settings give it, parts left out being read from the provider
 * @param shape                     what one instance offers to jobs; null until read from the provider, when the
 *                                  settings do not give all of it ({@link #withShapeFromProvider})
 * @param bootFailuresBeforeBackoff failed boots in a row that put the pool in backoff
 * @param capacityBackoff           how long the pool starts nothing after a capacity or quota error
 * @param followPowerRequests          start and stop what the pool's scheduler asks for (Slurm's power saving), and
 *                                  plan nothing itself
 * @param fallbacks                 pools, in order, that take this pool's jobs when it cannot
 *                                  ({@link io.hpcscale.common.config.PoolGroups})
 * @param fixedTarget               how the pool keeps a fixed count of instances, or null when queued jobs decide
 * @param evictionBackoff           when repeated Spot evictions put the pool in backoff
 * @param decisions                 the decisions of a pool that follows its queued jobs, in order: the scaler's
 *                                  {@value #SCALE_UP}, {@value #DRAIN_COMPLETION} and {@value #IDLE_DRAIN}, and
 *                                  the administrator's own ({@code io.hpcscale.scaler.plan.CustomDecision}) among them
 * @param matching                  which of its queue's jobs the pool takes: price, node properties, resources, the
 *                                  queue's constraint
 * @param gangTimeout               how long a job that needs all its nodes at once (a gang) waits for the nodes started
 *                                  for it before those that came are given back
 * @param protection                when failed boots stop the pool starting instances, and when it probes again
 * @param orphans                   when an instance hpcscale did not start and no agent reports is an orphan, and
 *                                  whether it is stopped
 * @param healthChecked             {@code healthCheck} is set: a node serves, and its boot counts as done, only once
 *                                  its check passed; a node whose check failed is replaced as a failed boot
 * @param adaptiveIdle              the bounds of an idle timeout chosen from the pool's arrivals and boot times, or
 *                                  null when {@code idleTimeout} is fixed
 * @param warm                      started, idle nodes the pool keeps beyond what queued jobs need, so that the next
 *                                  jobs start without waiting for a boot, at all hours or more in scheduled windows
 * @param demand                    which queued jobs count as demand: every one that fits, or only those the
 *                                  scheduler's backfilling would start now with every node of the pool up
 * @param backfillWindow            how far ahead the scheduler's backfilling plans: a reservation later than this
 *                                  holds no job back (Slurm's {@code bf_window})
 */
public record PoolConfig(
        String name,
        ShapeSettings shapeSettings,
        VmShape shape,
        int min,
        int max,
        Duration idleTimeout,
        Duration bootTimeout,
        boolean countHeldJobs,
        StopAction stopAction,
        int maxStartPerCycle,
        int maxStopPerCycle,
        int bootFailuresBeforeBackoff,
        Duration capacityBackoff,
        boolean followPowerRequests,
        List<String> fallbacks,
        FixedTarget fixedTarget,
        EvictionBackoff evictionBackoff,
        List<String> decisions,
        PoolMatching matching,
        Duration gangTimeout,
        Protection protection,
        OrphanPolicy orphans,
        boolean healthChecked,
        AdaptiveIdle adaptiveIdle,
        WarmSchedule warm,
        DemandModel demand,
        Duration backfillWindow) {

    /** The bounds within which an adaptive idle timeout is chosen. */
    public record AdaptiveIdle(Duration min, Duration max) {
    }

    public static final String SCALE_UP = "scaleUp";
    public static final String DRAIN_COMPLETION = "drainCompletion";
    public static final String IDLE_DRAIN = "idleDrain";
    /** The scaler's own decisions, in the order they keep whatever is placed among them. */
    public static final List<String> OWN_DECISIONS = List.of(SCALE_UP, DRAIN_COMPLETION, IDLE_DRAIN);

    public PoolConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(shapeSettings, "shapeSettings");
        Objects.requireNonNull(evictionBackoff, "evictionBackoff");
        Objects.requireNonNull(matching, "matching");
        Objects.requireNonNull(protection, "protection");
        Objects.requireNonNull(orphans, "orphans");
        fallbacks = List.copyOf(fallbacks);
        decisions = List.copyOf(decisions);
        Objects.requireNonNull(warm, "warm");
        Objects.requireNonNull(demand, "demand");
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("pool " + name + ": need 0 <= min <= max, have min " + min
                    + " and max " + max);
        }
    }

    /** The administrator's decisions named in {@link #decisions}. */
    public List<String> customDecisions() {
        return decisions.stream().filter(d -> !OWN_DECISIONS.contains(d)).toList();
    }

    /** The shape is known: given by the settings or read from the provider. */
    public boolean shapeKnown() {
        return shape != null;
    }

    /** The pool keeps a count set from outside ({@code target = fixed}) rather than what queued jobs need. */
    public boolean fixed() {
        return fixedTarget != null;
    }

    /** These settings with the provider's shape under the parts the settings give. */
    public PoolConfig withShapeFromProvider(VmShape fromProvider) {
        return new PoolConfig(name, shapeSettings, shapeSettings.over(fromProvider), min, max, idleTimeout,
                bootTimeout, countHeldJobs, stopAction, maxStartPerCycle, maxStopPerCycle, bootFailuresBeforeBackoff,
                capacityBackoff, followPowerRequests, fallbacks, fixedTarget, evictionBackoff, decisions, matching,
                gangTimeout, protection, orphans, healthChecked, adaptiveIdle, warm, demand, backfillWindow);
    }
}
