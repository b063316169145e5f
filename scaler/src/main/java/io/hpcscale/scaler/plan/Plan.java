package io.hpcscale.scaler.plan;

import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.documents.StopKind;
import io.hpcscale.scaler.removal.RemovalMessage;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * What the scaler should do for one pool this cycle: a list of actions, each with its reason, in the order they are
 * carried out (store-only actions first, then stops, then starts, then the creation), and the notes that say why
 * something was not done.
 *
 * @param queuedJobs             queued (and, when configured, held) jobs of the pool, whatever else is known
 * @param instancesUnknownBecause why the pool's instances could not be listed, or null when they were
 * @param demand                 what the queued jobs need, for logging and status; none when the instances are unknown
 * @param passedOn               ids of the queued jobs this pool cannot take now (they do not fit its VM size, it is at
 *                               its max or in backoff), for the next pool of its group; empty when it has none
 */
public record Plan(
        String pool,
        List<Action> actions,
        List<Note> notes,
        List<Found> found,
        int queuedJobs,
        String instancesUnknownBecause,
        Demand demand,
        Set<String> passedOn) {

    public Plan {
        actions = actions.stream().sorted(Comparator.comparingInt(Plan::order)).toList();
        if (actions.stream().filter(Create.class::isInstance).count() > 1) {
            throw new IllegalArgumentException("a plan creates instances once");
        }
        notes = List.copyOf(notes);
        found = List.copyOf(found);
        passedOn = Set.copyOf(passedOn);
    }

    /**
     * One thing to do, as its event says it: the kind, what it acts on (instance ids, or node names for what is
     * asked of the agent) and why. Every action is one event, whatever its outcome: done, refused, failed or dry run.
     */
    public sealed interface Action permits CancelDrain, DrainRequest, PowerDone, Acceptance, RemovalAnswer, Stop,
            Removal, Start, Create {
        EventKind event();

        List<String> subjects();

        String description();
    }

    /** The order of execution: what the store alone carries out, then what calls the cloud. */
    private static final List<Class<? extends Action>> ORDER = List.of(CancelDrain.class, DrainRequest.class,
            PowerDone.class, Acceptance.class, RemovalAnswer.class, Stop.class, Removal.class, Start.class,
            Create.class);

    private static int order(Action action) {
        for (int i = 0; i < ORDER.size(); i++) {
            if (ORDER.get(i).isInstance(action)) {
                return i;
            }
        }
        throw new IllegalStateException(action.getClass() + " has no place in the order of execution");
    }

    /**
     * Start a stopped instance; its drain request, if any, is withdrawn once it starts.
     *
     * @param node         its node's name as the scheduler spells it, for the documents named after it
     * @param nodePool     the pool in whose partition the agent writes the node's vms document, which
     *                     {@link StartGuard} re-reads just before the call
     * @param powerRequest it answers the scheduler's request to power the node up, which is deleted once it starts
     */
    public record Start(Instance instance, String node, String nodePool, String reason, boolean withdrawDrain,
            boolean powerRequest) implements Action {
        @Override
        public EventKind event() {
            return EventKind.START;
        }

        @Override
        public List<String> subjects() {
            return List.of(instance.id());
        }

        @Override
        public String description() {
            return reason;
        }
    }

    /** Add instances because no stopped one is left to start. */
    public record Create(int count, String reason) implements Action {
        @Override
        public EventKind event() {
            return EventKind.CREATE;
        }

        @Override
        public List<String> subjects() {
            return List.of();
        }

        @Override
        public String description() {
            return count + " instances: " + reason;
        }
    }

    /** Ask the agent to take a node out of service; {@code node} is its name as the scheduler spells it. */
    public record DrainRequest(Instance instance, String node, String reason) implements Action {
        @Override
        public EventKind event() {
            return EventKind.DRAIN;
        }

        @Override
        public List<String> subjects() {
            return List.of(node);
        }

        @Override
        public String description() {
            return reason;
        }
    }

    /** Withdraw a drain request; the agent returns the node to service. */
    public record CancelDrain(String node, String reason) implements Action {
        @Override
        public EventKind event() {
            return EventKind.CANCEL_DRAIN;
        }

        @Override
        public List<String> subjects() {
            return List.of(node);
        }

        @Override
        public String description() {
            return reason;
        }
    }

    /**
     * Stop an instance; {@link StopGuard} re-checks it, by its kind, just before the call, on a fresh read of the
     * documents of {@code node} (its node's name as the scheduler spells it), whose vms document the agent writes in
     * pool {@code nodePool} (the group's first pool, for a fallback's node).
     */
    public record Stop(Instance instance, String node, String nodePool, String reason, StopKind kind)
            implements Action {
        @Override
        public EventKind event() {
            return switch (kind) {
                case BOOT_FAILURE -> EventKind.BOOT_TIMEOUT;
                case UNHEALTHY -> EventKind.UNHEALTHY;
                case REMOVED -> EventKind.REMOVE;
                case DRAINED, POWER_SAVING, SURPLUS, ORPHAN, EVICTED, STOPPED_ELSEWHERE -> EventKind.STOP;
            };
        }

        @Override
        public List<String> subjects() {
            return List.of(instance.id());
        }

        @Override
        public String description() {
            return reason;
        }
    }

    /** A scheduler's power request that needs no action any more (done, or its node has no instance): delete it. */
    public record PowerDone(String node, String reason) implements Action {
        @Override
        public EventKind event() {
            return EventKind.POWER_REQUEST_DONE;
        }

        @Override
        public List<String> subjects() {
            return List.of(node);
        }

        @Override
        public String description() {
            return reason;
        }
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
    public record Acceptance(RemovalMessage.Request message, String instance) implements Action {
        @Override
        public EventKind event() {
            return EventKind.REMOVAL_ACCEPTED;
        }

        @Override
        public List<String> subjects() {
            return List.of(instance);
        }

        @Override
        public String description() {
            return "asked by " + message.request().requestedBy() + " at " + message.request().requestedAt();
        }
    }

    /**
     * Delete an instance whose removal was taken on: its node runs nothing (drained, or no agent reports it).
     * Re-checked by {@link StopGuard} like any stop.
     */
    public record Removal(Instance instance, String node, String nodePool, String reason) implements Action {

        /** The deletion, as the stop it is carried out with. */
        public Stop asStop() {
            return new Stop(instance, node, nodePool, reason, StopKind.REMOVED);
        }

        @Override
        public EventKind event() {
            return EventKind.REMOVE;
        }

        @Override
        public List<String> subjects() {
            return List.of(instance.id());
        }

        @Override
        public String description() {
            return reason;
        }
    }

    /**
     * A removal message answered without taking it on: {@code setAside} false when it was taken on already (a second
     * delivery: the message is deleted), true when it cannot be (moved to the poison queue).
     */
    public record RemovalAnswer(RemovalMessage.Request message, EventKind kind, String reason, boolean setAside)
            implements Action {
        @Override
        public EventKind event() {
            return kind;
        }

        @Override
        public List<String> subjects() {
            return List.of(message.request().vmName());
        }

        @Override
        public String description() {
            return reason;
        }
    }

    /** A refusal or condition worth an event: why the pool did not do something. */
    public record Note(EventKind kind, String message) {
        public Note {
            if (kind.action()) {
                throw new IllegalArgumentException(kind + " is an action, not a note");
            }
        }
    }

    public List<Start> starts() {
        return of(Start.class);
    }

    /** The creation of new instances, or null when none is planned. */
    public Create create() {
        return of(Create.class).stream().findFirst().orElse(null);
    }

    public List<DrainRequest> drains() {
        return of(DrainRequest.class);
    }

    public List<CancelDrain> cancels() {
        return of(CancelDrain.class);
    }

    public List<Stop> stops() {
        return of(Stop.class);
    }

    public List<PowerDone> powerDone() {
        return of(PowerDone.class);
    }

    public List<Acceptance> acceptances() {
        return of(Acceptance.class);
    }

    public List<Removal> removals() {
        return of(Removal.class);
    }

    public List<RemovalAnswer> removalAnswers() {
        return of(RemovalAnswer.class);
    }

    private <A extends Action> List<A> of(Class<A> kind) {
        return actions.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    public boolean instancesKnown() {
        return instancesUnknownBecause == null;
    }

    public boolean isEmpty() {
        return actions.isEmpty();
    }
}
