package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.StopKind;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.removal.RemovalMessage;
import java.util.List;
import java.util.Set;

/**
 * What the scaler should do for one pool this cycle, each action with its reason.
 *
 * @param queuedJobs             queued (and, when configured, held) jobs of the pool, whatever else is known
 * @param instancesUnknownBecause why the pool's instances could not be listed, or null when they were
 * @param demand                 what the queued jobs need, for logging and status; none when the instances are unknown
 * @param passedOn               ids of the queued jobs this pool cannot take now (they do not fit its VM size, it is at
 *                               its max or in backoff), for the next pool of its group; empty when it has none
 * @param acceptances            removal requests to take on
 * @param removals               instances to delete because their node asked, once it runs nothing
 * @param removalAnswers         removal messages answered without taking them on: a second delivery, or set aside
 */
public record Plan(
        String pool,
        List<Start> starts,
        Create create,
        List<DrainRequest> drains,
        List<CancelDrain> cancels,
        List<Stop> stops,
        List<PowerDone> powerDone,
        List<Note> notes,
        List<Found> found,
        int queuedJobs,
        String instancesUnknownBecause,
        Demand demand,
        Set<String> passedOn,
        List<Acceptance> acceptances,
        List<Removal> removals,
        List<RemovalAnswer> removalAnswers) {

    public Plan {
        starts = List.copyOf(starts);
        drains = List.copyOf(drains);
        cancels = List.copyOf(cancels);
        stops = List.copyOf(stops);
        powerDone = List.copyOf(powerDone);
        notes = List.copyOf(notes);
        found = List.copyOf(found);
        passedOn = Set.copyOf(passedOn);
        acceptances = List.copyOf(acceptances);
        removals = List.copyOf(removals);
        removalAnswers = List.copyOf(removalAnswers);
    }

    /**
     * Start a stopped instance; its drain request, if any, is withdrawn once it starts.
     *
     * @param node         its node's name as the scheduler spells it, for the documents named after it
     * @param powerRequest it answers Slurm's resume request for the node, which is deleted once it starts
     */
    public record Start(Instance instance, String node, String reason, boolean withdrawDrain, boolean powerRequest) {
    }

    /** Add instances because no stopped one is left to start. */
    public record Create(int count, String reason) {
    }

    /** Ask the agent to take a node out of service; {@code node} is its name as the scheduler spells it. */
    public record DrainRequest(Instance instance, String node, String reason) {
    }

    /** Withdraw a drain request; the agent returns the node to service. */
    public record CancelDrain(String node, String reason) {
    }

    /**
     * Stop an instance; {@link StopGuard} re-checks it, by its kind, just before the call, on a fresh read of the
     * documents of {@code node} (its node's name as the scheduler spells it), whose vms document the agent writes in
     * pool {@code nodePool} (the group's first pool, for a fallback's node).
     */
    public record Stop(Instance instance, String node, String nodePool, String reason, StopKind kind) {
        public EventKind event() {
            return switch (kind) {
                case BOOT_FAILURE -> EventKind.BOOT_TIMEOUT;
                case REMOVED -> EventKind.REMOVE;
                case DRAINED, POWER_SAVING, SURPLUS, EVICTED, STOPPED_ELSEWHERE -> EventKind.STOP;
            };
        }
    }

    /** A power request that needs no action any more (done, or its node has no instance): delete it. */
    public record PowerDone(String node, String reason) {
    }

    /**
     * What the listing showed of an instance that no action of this cycle did: the outcome of an action an earlier
     * scaler asked for ({@link EventKind#SETTLED}), or a stop hpcscale did not make ({@link EventKind#EVICTED},
     * {@link EventKind#STOPPED_ELSEWHERE}).
     */
    public record Found(EventKind kind, String instance, String message) {
    }

    /**
     * Take a node's removal request on: the scaler records it in the pool's state, lowers a fixed pool's count and
     * deletes the message; the record then drives the removal ({@link Removal}) in this and later cycles.
     *
     * @param instance the instance the request names, as the cloud lists it
     */
    public record Acceptance(RemovalMessage.Request message, String instance) {
    }

    /**
     * Delete an instance whose removal was taken on: its node runs nothing (drained, or no agent reports it).
     * Re-checked by {@link StopGuard} like any stop.
     */
    public record Removal(Instance instance, String node, String nodePool, String reason) {

        /** The deletion, as the stop it is carried out with. */
        public Stop asStop() {
            return new Stop(instance, node, nodePool, reason, StopKind.REMOVED);
        }
    }

    /**
     * A removal message answered without taking it on: {@code setAside} false when it was taken on already (a second
     * delivery: the message is deleted), true when it cannot be (moved to the poison queue).
     */
    public record RemovalAnswer(RemovalMessage.Request message, EventKind kind, String reason, boolean setAside) {
    }

    /** A refusal or condition worth an event: why the pool did not do something. */
    public record Note(EventKind kind, String message) {
        public Note {
            if (kind.action()) {
                throw new IllegalArgumentException(kind + " is an action, not a note");
            }
        }
    }

    public boolean instancesKnown() {
        return instancesUnknownBecause == null;
    }

    public boolean isEmpty() {
        return starts.isEmpty() && create == null && drains.isEmpty() && cancels.isEmpty() && stops.isEmpty()
                && powerDone.isEmpty() && acceptances.isEmpty() && removals.isEmpty() && removalAnswers.isEmpty();
    }
}
