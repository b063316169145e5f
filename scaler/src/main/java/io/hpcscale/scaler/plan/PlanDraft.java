package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.NodeNames;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.plan.Plan.Action;
import io.hpcscale.scaler.plan.Plan.Found;
import io.hpcscale.scaler.plan.Plan.Note;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The plan as the decisions of one cycle write it, in their order: the only mutable thing of a cycle's planning.
 * A decision adds actions and notes, and asks what earlier decisions planned (a node started, stopped or whose
 * drain is withdrawn this cycle is left alone by later ones).
 */
final class PlanDraft {
    private final List<Action> actions = new ArrayList<>();
    private final List<Note> notes = new ArrayList<>();
    private final List<Found> found = new ArrayList<>();
    private final Set<String> scaleDownDrains = new HashSet<>();
    private final Set<String> kept = new HashSet<>();

    void add(Action action) {
        actions.add(action);
    }

    /** A drain asked to shrink the pool, which later ones count against its min and step. */
    void addScaleDownDrain(Plan.DrainRequest drain) {
        actions.add(drain);
        scaleDownDrains.add(NodeNames.key(drain.node()));
    }

    /** Node-name keys of the nodes this cycle asks to drain to shrink the pool. */
    Set<String> scaleDownDrains() {
        return Set.copyOf(scaleDownDrains);
    }

    /** A node not to be drained for being idle this cycle. */
    void keep(String node) {
        kept.add(NodeNames.key(node));
    }

    /** Node-name keys of the nodes kept this cycle. */
    Set<String> kept() {
        return Set.copyOf(kept);
    }

    /** The instances this cycle starts or creates. */
    int startsPlanned() {
        return planned(Plan.Start.class).size() + planned(Plan.Create.class).stream().mapToInt(Plan.Create::count)
                .sum();
    }

    void note(EventKind kind, String message) {
        notes.add(new Note(kind, message));
    }

    void found(EventKind kind, String instance, String message) {
        found.add(new Found(kind, instance, message));
    }

    /** Whether a note of this kind was made this cycle. */
    boolean noted(EventKind kind) {
        return notes.stream().anyMatch(note -> note.kind() == kind);
    }

    boolean foundAny(EventKind kind) {
        return found.stream().anyMatch(f -> f.kind() == kind);
    }

    <A extends Action> List<A> planned(Class<A> kind) {
        return actions.stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    /** The instances this cycle stops: out of play for every decision after the one that stops them. */
    List<Instance> stopped() {
        return planned(Plan.Stop.class).stream().map(Plan.Stop::instance).toList();
    }

    /** Node-name keys of the nodes whose drain this cycle withdraws. */
    Set<String> cancelledDrains() {
        return planned(Plan.CancelDrain.class).stream().map(c -> NodeNames.key(c.node()))
                .collect(Collectors.toSet());
    }

    List<Action> actions() {
        return actions;
    }

    List<Note> notes() {
        return notes;
    }

    List<Found> foundList() {
        return found;
    }
}
