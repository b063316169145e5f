package io.hpcscale.scaler.plan;

import java.util.List;
import java.util.Set;

/**
 * What the pool's queued jobs need.
 *
 * @param jobsConsidered     queued (and, when configured, held) jobs of the pool
 * @param newNodes           nodes needed beyond those running or booting, within the pool's max
 * @param nodesInUse         running and booting nodes that queued jobs will be placed on: not to be scaled down,
 *                           nor counted as warm
 * @param drainsToCancel     drained nodes that queued jobs need back
 * @param unsatisfiable      jobs that can never run on this pool's VM shape, with the reason
 * @param jobsBeyondMax      jobs that would need more nodes than the pool's max allows now
 * @param placedOnExisting   ids of the jobs that fit running, booting or drained nodes, needing no new one
 * @param notPlaced          ids of the jobs this pool cannot take now: unsatisfiable, or beyond its max
 * @param placedOnNodesUp    ids of the jobs that fit nodes in service (running or drained), none booting or new: the
 *                           scheduler can start them now
 */
public record Demand(
        int jobsConsidered,
        int newNodes,
        Set<String> nodesInUse,
        Set<String> drainsToCancel,
        List<Unsatisfiable> unsatisfiable,
        int jobsBeyondMax,
        Set<String> placedOnExisting,
        Set<String> notPlaced,
        Set<String> placedOnNodesUp) {

    public Demand {
        nodesInUse = Set.copyOf(nodesInUse);
        drainsToCancel = Set.copyOf(drainsToCancel);
        unsatisfiable = List.copyOf(unsatisfiable);
        placedOnExisting = Set.copyOf(placedOnExisting);
        notPlaced = Set.copyOf(notPlaced);
        placedOnNodesUp = Set.copyOf(placedOnNodesUp);
    }

    public static Demand none() {
        return new Demand(0, 0, Set.of(), Set.of(), List.of(), 0, Set.of(), Set.of(), Set.of());
    }

    /**
     * The queued jobs the scheduler would not start now even with every node of the pool up, as its EASY backfilling
     * plans ({@link BackfillForecast}).
     *
     * @param forJob the first job in queue order that does not fit, for which the scheduler reserves CPUs; null when
     *               every job would start
     * @param held   the jobs held back, {@code forJob} among them
     */
    public record Reservation(String forJob, Set<String> held) {
        public static final Reservation NONE = new Reservation(null, Set.of());

        public Reservation {
            held = Set.copyOf(held);
        }
    }

    public record Unsatisfiable(String jobId, String reason) {
    }
}
