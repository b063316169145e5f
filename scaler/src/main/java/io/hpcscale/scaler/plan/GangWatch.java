package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.Placement;
import io.hpcscale.scaler.documents.GangWait;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.match.Constraint;
import io.hpcscale.scaler.match.PoolFit;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Jobs that need all their nodes at once in one placement group: MPI gangs ({@code in-a-placement-group}, or several
 * nodes of a pool with InfiniBand). The planner already starts nodes for all of a job's chunks or for none; this
 * times what was started. The clock starts when the pool, out of backoff, needs new nodes for the gang, and stops as
 * soon as the gang fits nodes in service (the scheduler can start it). A gang whose nodes have not all come up
 * within the pool's {@code gangTimeout} is given back: it is left out of the pool's demand, so its nodes are idle and
 * drained like any other (a fallback pool may take it meanwhile), an event says so, and the pool tries it again
 * after its {@code capacityBackoff}. The clocks live in the pool's state ({@link GangWait}).
 */
final class GangWatch {
    private final PoolView view;
    private final PoolFit fit;
    private final Map<String, GangWait> gangs;
    private final Set<String> heldBack = new HashSet<>();
    /** The pool's nodes share InfiniBand: a job of several nodes here is a gang. */
    private final boolean infiniband;

    GangWatch(PoolView view, PoolFit fit) {
        this.view = view;
        this.fit = fit;
        this.gangs = new TreeMap<>(view.memory().gangs());
        this.infiniband = Boolean.TRUE.equals(fit.node().property("infiniband"));
    }

    /** How many nodes the job needs at once, if it is a gang in this pool; 0 otherwise. */
    private int gangNodes(JobDocument job) {
        if (job.nodes() <= 1 && job.chunkCount() <= 1) {
            return 0;
        }
        Constraint constraint = fit.constraintOf(job);
        if (!infiniband && !constraint.inOnePlacementGroup()) {
            return 0;
        }
        boolean oneChunkEach = job.placement() == Placement.scatter
                || constraint.exclusivity() == Constraint.Exclusivity.JOB;
        int nodes = oneChunkEach ? job.chunkCount() : job.nodes();
        return nodes > 1 ? nodes : 0;
    }

    /** The gangs left out of this cycle's demand: given back now, or earlier and not yet due again. */
    Set<String> heldBack(PlanDraft draft) {
        if (gangs.isEmpty()) {
            return Set.of();
        }
        Instant now = view.now();
        Set<String> waiting = new HashSet<>();
        view.consideredJobs().forEach(job -> waiting.add(job.schedulerId()));
        gangs.keySet().removeIf(job -> !waiting.contains(job));
        for (Map.Entry<String, GangWait> entry : new TreeMap<>(gangs).entrySet()) {
            GangWait wait = entry.getValue();
            if (wait.givenBackAt() != null) {
                if (now.isBefore(wait.givenBackAt().plus(view.pool().capacityBackoff()))) {
                    heldBack.add(entry.getKey());
                } else {
                    gangs.remove(entry.getKey());
                }
            } else if (!now.isBefore(wait.askedAt().plus(view.pool().gangTimeout()))) {
                gangs.put(entry.getKey(), new GangWait(wait.askedAt(), wait.nodes(), now));
                heldBack.add(entry.getKey());
                draft.note(EventKind.GANG_INCOMPLETE, "job " + entry.getKey() + " needs " + wait.nodes()
                        + " nodes at once; they were asked for at " + wait.askedAt() + " and have not all come up "
                        + "within gangTimeout " + Durations.format(view.pool().gangTimeout()) + ": the nodes it has "
                        + "are given back, and it is tried again after " + Durations.format(view.pool()
                                .capacityBackoff()));
            }
        }
        return Set.copyOf(heldBack);
    }

    /**
     * The pool's memory with a clock for each gang this demand starts nodes for, and none for a gang whose nodes are
     * all in service.
     */
    ScalerStateDocument after(Demand demand) {
        gangs.entrySet().removeIf(e -> e.getValue().givenBackAt() == null
                && demand.placedOnNodesUp().contains(e.getKey()));
        if (!view.memory().inBackoff(view.now()) && !view.memory().bootHealth().protectedNow()) {
            for (JobDocument job : view.consideredJobs()) {
                String id = job.schedulerId();
                if (gangs.containsKey(id) || demand.notPlaced().contains(id)
                        || demand.placedOnExisting().contains(id)) {
                    continue;
                }
                int nodes = gangNodes(job);
                if (nodes > 0) {
                    gangs.put(id, new GangWait(view.now(), nodes, null));
                }
            }
        }
        return gangs.equals(view.memory().gangs()) ? view.memory() : view.memory().withGangs(gangs);
    }
}
