package io.hpcscale.simulator.soak;

import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Which faults are on now, for how many more steps, and how many of each were injected. The injectors in front of
 * the store, the cloud and the scheduler ask it at each call; the soak switches faults on at random and ticks it
 * once a step.
 */
final class Faults {
    private final Random random;
    private final SettableClock clock;
    private final Map<Fault, Integer> stepsLeft = new EnumMap<>(Fault.class);
    private final FaultCounts counts;
    private final List<Deferred> deferred = new ArrayList<>();
    private Actor actor = Actor.SOAK;
    private Actor killTarget;
    private int killAfterCalls;
    private long step;

    /** An operation the cloud accepted and carries out some steps later. */
    private record Deferred(long dueStep, Runnable operation) {
    }

    Faults(Random random, SettableClock clock, FaultCounts counts) {
        this.random = random;
        this.clock = clock;
        this.counts = counts;
    }

    Random random() {
        return random;
    }

    SettableClock clock() {
        return clock;
    }

    /** Switches a lasting fault on for {@code steps} steps (or longer, if it is on already). */
    void start(Fault fault, int steps) {
        stepsLeft.merge(fault, steps, Math::max);
        count(fault);
    }

    /** Counts a fault that happens once: a restart, an eviction, a second scaler's cycle. */
    void count(Fault fault) {
        counts.injected(fault);
    }

    boolean on(Fault fault) {
        return actor != Actor.SOAK && stepsLeft.getOrDefault(fault, 0) > 0;
    }

    /** Whether no lasting fault is on, whoever calls. */
    boolean quiet() {
        return stepsLeft.values().stream().allMatch(left -> left == 0);
    }

    /** True now and then while the fault is on: most faults hit some calls, not every one. */
    boolean hits(Fault fault, int oneIn) {
        boolean hit = on(fault) && random.nextInt(oneIn) == 0;
        if (hit) {
            counts.disturbed();
        }
        return hit;
    }

    /** Ends a step: stretches shorten, deferred cloud operations that are due now happen. */
    void tick() {
        step++;
        stepsLeft.replaceAll((fault, left) -> Math.max(0, left - 1));
        List<Deferred> due = deferred.stream().filter(d -> d.dueStep() <= step).toList();
        deferred.removeAll(due);
        due.forEach(d -> d.operation().run());
    }

    /** Every fault off, and what the cloud still owes done now: the calm end of a scenario. */
    void calm() {
        stepsLeft.clear();
        killTarget = null;
        List<Deferred> due = List.copyOf(deferred);
        deferred.clear();
        due.forEach(d -> d.operation().run());
    }

    void defer(int steps, Runnable operation) {
        deferred.add(new Deferred(step + steps, operation));
    }

    Actor actor() {
        return actor;
    }

    /** The calls made from now on are this actor's. */
    Actor actAs(Actor next) {
        Actor before = actor;
        actor = next;
        return before;
    }

    /** The actor's process dies at one of its next calls, or between two cycles if it makes fewer. */
    void armKill(Actor target, int afterCalls) {
        killTarget = target;
        killAfterCalls = afterCalls;
    }

    /** Whether a kill is armed against the actor; clears it, as the soak restarts the actor after its cycle. */
    boolean takeKill(Actor target) {
        boolean armed = killTarget == target;
        if (armed) {
            killTarget = null;
        }
        return armed;
    }

    /** Each injector calls this first: the process dies here if its kill is due. */
    void call(String where) {
        if (killTarget != null && killTarget == actor && killAfterCalls-- <= 0) {
            killTarget = null;
            throw new Killed(where);
        }
    }

    /** The store or a command is slow: time passes within the call. */
    void slow(Duration atMost) {
        clock.advance(Duration.ofMillis(1 + random.nextLong(atMost.toMillis())));
    }
}
