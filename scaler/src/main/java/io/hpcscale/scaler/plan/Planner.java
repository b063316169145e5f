package io.hpcscale.scaler.plan;

import java.time.Duration;
import java.util.Set;

/**
 * Decides what to do for one pool: a pure function of the pool's state, with no I/O and no clock of its own.
 *
 * <ul>
 *   <li>Nothing is done to a pool whose instances could not be listed: unknown is never zero.</li>
 *   <li>What the scaler remembers (its state document) is first brought up to date with the listing: an action an
 *       earlier scaler had asked for is settled by what the cloud now shows, instances found active are recorded,
 *       boots whose node reported end.</li>
 *   <li>A pool whose agent has not read the scheduler for {@code staleAfter} is frozen: no drain, no stop, no
 *       boot timeout, and no start beyond its min.</li>
 *   <li>Scale-up: queued jobs are packed onto free, booting and drained capacity and new nodes; stopped instances
 *       start before new ones are created; min, max, backoff and the per-cycle step limit bound it.</li>
 *   <li>Scale-down: a node free for the idle timeout and not needed by queued jobs is asked to drain; its instance
 *       is stopped only when {@link StopGuard} allows it.</li>
 *   <li>An instance whose node has not reported within the boot timeout is stopped; the failed boot is counted once
 *       the stop is done, and enough failures in a row put the pool in backoff.</li>
 *   <li>A pool of {@code target = fixed} keeps the count it is given instead ({@link FixedTargetPlanning}).</li>
 *   <li>Spot evictions found in too many cycles within a window put the pool in backoff.</li>
 * </ul>
 */
public final class Planner {
    private final Duration staleAfter;

    public Planner(Duration staleAfter) {
        this.staleAfter = staleAfter;
    }

    public PlanResult plan(PoolState state) {
        return new Planning(state, staleAfter).run();
    }

    /**
     * The ids of the queued jobs that fit the pool's running, booting or drained nodes, needing no new one: in a
     * group of pools serving one queue, what each pool's nodes already up can take is theirs before any pool
     * starts a node. Empty when the pool's instances or its agent's read are not known.
     */
    public Set<String> fitOnExisting(PoolState state) {
        return new Planning(state, staleAfter).fitOnExisting();
    }
}
