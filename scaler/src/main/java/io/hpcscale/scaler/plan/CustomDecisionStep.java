package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.NodeNames;
import io.hpcscale.scaler.cloud.Instance;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs an administrator's {@link CustomDecision} among the scaler's own and carries out what it asks only as far as
 * hpcscale's rules allow: more nodes through {@link Growth}; a node kept from {@link IdleDrain}; a drain only of a
 * node in service and idle (for any time: the idle timeout is {@link IdleDrain}'s own rule), not kept by an earlier
 * decision, needed by no queued job, within the pool's min and step. What it asks and is refused, and a decision that throws, are events.
 */
final class CustomDecisionStep implements Decision {
    private final CustomDecision decision;
    private final Demand demand;

    CustomDecisionStep(CustomDecision decision, Demand demand) {
        this.decision = decision;
        this.demand = demand;
    }

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        List<CustomDecision.Request> requests;
        try {
            requests = List.copyOf(decision.decide(facts(view, draft)));
        } catch (RuntimeException | LinkageError e) {
            draft.note(EventKind.CUSTOM_DECISION, "decision " + decision.name() + " failed (" + e
                    + "): nothing it asks is done this cycle");
            return;
        }
        for (CustomDecision.Request request : requests) {
            if (request instanceof CustomDecision.Grow grow) {
                grow(view, draft, grow);
            } else if (request instanceof CustomDecision.Keep keep) {
                keep(view, draft, keep);
            } else if (request instanceof CustomDecision.Drain drain) {
                drain(view, draft, drain);
            }
        }
    }

    private void grow(PoolView view, PlanDraft draft, CustomDecision.Grow grow) {
        if (grow.nodes() <= 0) {
            refuse(draft, grow, "a count of nodes must be positive, not " + grow.nodes());
            return;
        }
        int before = draft.startsPlanned();
        Growth.startOrCreate(view, draft, grow.nodes(), view.active(), decision.name() + ": " + grow.reason());
        int planned = draft.startsPlanned() - before;
        if (planned < grow.nodes()) {
            refuse(draft, grow, Words.count(planned, "node") + " of them planned: the rest would pass the pool's "
                    + "max of " + view.pool().max() + ", its step of " + view.pool().maxStartPerCycle()
                    + " or its backoff, or no instance is left to start");
        }
    }

    private void keep(PoolView view, PlanDraft draft, CustomDecision.Keep keep) {
        if (running(view, keep.node()).isEmpty()) {
            refuse(draft, keep, "no running instance of the pool is node " + keep.node());
            return;
        }
        draft.keep(keep.node());
    }

    private void drain(PoolView view, PlanDraft draft, CustomDecision.Drain drain) {
        Optional<Instance> found = running(view, drain.node());
        String refusal = found.isEmpty() ? "no running instance of the pool is node " + drain.node()
                : refusal(view, draft, found.get());
        if (refusal != null) {
            refuse(draft, drain, refusal);
            return;
        }
        Instance instance = found.get();
        draft.addScaleDownDrain(new Plan.DrainRequest(instance, view.nodeOf(instance), decision.name() + ": "
                + drain.reason()));
    }

    private static Optional<Instance> running(PoolView view, String node) {
        return view.running().stream().filter(i -> NodeNames.key(view.nodeOf(i)).equals(NodeNames.key(node)))
                .findFirst();
    }

    private String refusal(PoolView view, PlanDraft draft, Instance instance) {
        if (view.drained(instance) || draft.scaleDownDrains().contains(NodeNames.key(view.nodeOf(instance)))) {
            return "it is draining already";
        }
        if (view.idleFor(instance).isEmpty()) {
            return "it is not in service and idle";
        }
        if (draft.kept().contains(NodeNames.key(view.nodeOf(instance)))) {
            return "an earlier decision keeps it this cycle";
        }
        if (demand.nodesInUse().contains(view.vmOf(instance).name())) {
            return "queued jobs will run on it";
        }
        if (IdleDrain.room(view, draft) <= 0) {
            return "the pool is at its min of " + view.pool().min() + " or has drained its step of "
                    + view.pool().maxStopPerCycle() + " this cycle";
        }
        return null;
    }

    private void refuse(PlanDraft draft, CustomDecision.Request request, String why) {
        draft.note(EventKind.CUSTOM_DECISION, "decision " + decision.name() + " asked " + request + ", refused: "
                + why);
    }

    private PoolFacts facts(PoolView view, PlanDraft draft) {
        List<PoolFacts.Node> nodes = new ArrayList<>();
        view.running().forEach(i -> nodes.add(node(view, draft, i, PoolFacts.State.RUNNING)));
        view.booting().forEach(i -> nodes.add(node(view, draft, i, PoolFacts.State.BOOTING)));
        view.stopped().forEach(i -> nodes.add(node(view, draft, i, PoolFacts.State.STOPPED)));
        return new PoolFacts(view.pool().name(), view.now(), view.pool().min(), view.pool().max(),
                view.pool().idleTimeout(), view.active(), draft.startsPlanned(), nodes, view.consideredJobs());
    }

    private PoolFacts.Node node(PoolView view, PlanDraft draft, Instance instance, PoolFacts.State state) {
        String name = view.nodeOf(instance);
        boolean draining = view.drained(instance) || draft.scaleDownDrains().contains(NodeNames.key(name));
        boolean inService = state != PoolFacts.State.STOPPED && view.inService(instance) != null;
        return new PoolFacts.Node(name, instance.id(), state, inService,
                state == PoolFacts.State.RUNNING ? view.idleFor(instance) : Optional.empty(), draining,
                view.vmOf(instance) != null && demand.nodesInUse().contains(view.vmOf(instance).name()));
    }
}
