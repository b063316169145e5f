package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.scaler.cloud.Instance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Idle scale-down: nodes in service, idle for the pool's idle timeout ({@link IdleTimeouts}), not needed by queued
 * jobs and not kept by an administrator's decision are asked to drain, longest idle first, keeping the pool at its
 * min, within the per-cycle step, and leaving the pool its warm nodes. The instance is stopped later, by
 * {@link DrainCompletion}, once the agent shows the drain complete. Only with a fresh agent read.
 */
final class IdleDrain implements Decision {
    private final Demand demand;

    IdleDrain(Demand demand) {
        this.demand = demand;
    }

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        int room = room(view, draft);
        if (view.warm() > 0) {
            room = Math.min(room, WarmNodes.spare(view, demand) - view.warm());
        }
        if (room <= 0) {
            return;
        }
        IdleTimeouts.Chosen chosen = IdleTimeouts.of(view.pool(), view.memory().idleLearning());
        Duration timeout = chosen.timeout();
        List<Candidate> candidates = new ArrayList<>();
        for (Instance instance : view.running()) {
            Optional<Duration> idle = view.idleFor(instance);
            if (idle.isEmpty() || view.drained(instance)
                    || draft.scaleDownDrains().contains(NodeNames.key(view.nodeOf(instance)))
                    || draft.kept().contains(NodeNames.key(view.nodeOf(instance)))
                    || demand.nodesInUse().contains(view.vmOf(instance).name())) {
                continue;
            }
            if (idle.get().compareTo(timeout) >= 0) {
                candidates.add(new Candidate(instance, idle.get()));
            }
        }
        candidates.sort(Comparator.comparing(Candidate::idle).reversed()
                .thenComparing(c -> c.instance().nodeName()));
        for (Candidate candidate : candidates.subList(0, Math.min(room, candidates.size()))) {
            draft.addScaleDownDrain(new Plan.DrainRequest(candidate.instance(), view.nodeOf(candidate.instance()),
                    "idle for " + Durations.human(candidate.idle()) + " (" + chosen.why() + "), not needed by "
                    + Words.count(demand.jobsConsidered(), "queued job")));
        }
    }

    /**
     * How many more nodes may be asked to drain to shrink the pool this cycle: those draining already and those
     * asked this cycle count against the pool's min and its per-cycle step.
     */
    static int room(PoolView view, PlanDraft draft) {
        Set<String> draining = new HashSet<>();
        for (Instance instance : view.running()) {
            if (view.drained(instance)) {
                draining.add(NodeNames.key(instance.nodeName()));
            }
        }
        draining.removeAll(draft.cancelledDrains());
        draining.addAll(draft.scaleDownDrains());
        // Failed boots being stopped are out of the view already: the planner took them out after BootTimeout.
        int staying = view.countedForMin() - draining.size();
        return Math.min(staying - view.pool().min(), view.pool().maxStopPerCycle() - draft.scaleDownDrains().size());
    }

    private record Candidate(Instance instance, Duration idle) {
    }
}
