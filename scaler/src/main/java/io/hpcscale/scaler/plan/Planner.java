package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.match.JobMatching;
import io.hpcscale.scaler.match.PoolFit;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Decides what to do for one pool: a pure function of the pool's state, with no I/O and no clock of its own. It
 * composes the decisions, each in its own file, in this order:
 *
 * <ol>
 *   <li>Nothing is done to a pool whose instances could not be listed: unknown is never zero.</li>
 *   <li>{@link PoolObservation}: what the scaler remembers (its state document) is brought up to date with the
 *       listing: an action an earlier scaler had asked for is settled, instances found active are recorded,
 *       evictions and failed provisioning counted; {@link InstanceSorting} sorts the instances into the
 *       {@link PoolView} that every decision reads (boots whose node reported end there).</li>
 *   <li>A pool whose agent has not read the scheduler for {@code staleAfter} is frozen: no drain, no stop, no
 *       boot timeout, and no start beyond its min.</li>
 *   <li>{@link NodeRemoval}: nodes that asked for their instance to be removed.</li>
 *   <li>{@link NodesWithoutInstance} (a note) and {@link BootTimeout}: an instance whose node has not reported
 *       within the boot timeout is stopped; the failed boot is counted once the stop is done, and enough failures in
 *       a row put the pool in backoff, or protect it ({@link ProtectedPool}); {@link FailedHealthChecks} replaces
 *       the instances whose node failed its health check, as failed boots. {@link Orphans}: instances hpcscale
 *       did not start, whose node no agent reports, are said (and stopped where the pool says so). What these stop
 *       counts for nothing from then on.</li>
 *   <li>A pool of {@code target = fixed} keeps the count it is given instead ({@link KeepFixedTarget}); a pool
 *       whose scheduler powers its nodes follows its requests ({@link SchedulerPowerRequests}).</li>
 *   <li>{@link ScaleUp}: queued jobs are packed onto free, booting and drained capacity and new nodes
 *       ({@link PoolDemand}); stopped instances start before new ones are created ({@link Growth}).</li>
 *   <li>{@link DrainCompletion}, then {@link IdleDrain}: a node free for the idle timeout and not needed by queued
 *       jobs is asked to drain; its instance is stopped only when {@link StopGuard} allows it.</li>
 * </ol>
 *
 * <p>An administrator's own decisions ({@link CustomDecision}) run where the pool's {@code decisions} place them
 * among the last three ({@link CustomDecisionStep}).
 */
public final class Planner {
    private final Duration staleAfter;
    private final Map<String, CustomDecision> custom;
    private final JobMatching matching;

    public Planner(Duration staleAfter) {
        this(staleAfter, Map.of());
    }

    public Planner(Duration staleAfter, Map<String, CustomDecision> custom) {
        this(staleAfter, custom, JobMatching.jobsOnly());
    }

    /**
     * @param custom   the administrator's decisions by name, for the pools that name them ({@link CustomDecisions})
     * @param matching the constraints of each job: its queue's and its own
     */
    public Planner(Duration staleAfter, Map<String, CustomDecision> custom, JobMatching matching) {
        this.staleAfter = staleAfter;
        this.custom = Map.copyOf(custom);
        this.matching = matching;
    }

    public JobMatching matching() {
        return matching;
    }

    public PlanResult plan(PoolState state) {
        PlanDraft draft = new PlanDraft();
        if (!state.instances().known()) {
            draft.note(EventKind.INSTANCES_UNKNOWN, "the instance list is unknown ("
                    + state.instances().unknownBecause() + "): nothing is started, drained or stopped");
            return result(state, state.state(), draft, Demand.none(), Set.of());
        }
        boolean fresh = PoolView.fresh(state, staleAfter);
        if (!fresh && !PoolView.agentless(state)) {
            draft.note(EventKind.STALE, state.agentReadAt() == null
                    ? "no agent has reported this pool yet: nothing is drained or stopped, nor started beyond min"
                    : "the agent last read the scheduler at " + state.agentReadAt() + ", more than "
                            + Durations.format(staleAfter) + " ago: nothing is drained or stopped, nor started "
                            + "beyond min, until it reports again");
        }
        PoolView view = InstanceSorting.sort(state, PoolObservation.settle(state, draft), fresh, draft);
        decideAll(view, draft, fresh ? List.of(new NodeRemoval(), new NodesWithoutInstance(), new BootTimeout(),
                new FailedHealthChecks(), new Orphans()) : List.of(new NodeRemoval()));
        view = view.without(draft.stopped());
        if (state.pool().fixed()) {
            decideAll(view, draft, List.of(new KeepFixedTarget()));
            return result(view, draft, Demand.none());
        }
        if (state.pool().followPowerRequests()) {
            decideAll(view, draft, List.of(new SchedulerPowerRequests()));
            return result(view, draft, Demand.none());
        }
        Demand demand = Demand.none();
        ScalerStateDocument memory = view.memory();
        if (fresh) {
            PoolFit fit = matching.forPool(state.node());
            GangWatch gangs = new GangWatch(view, fit);
            demand = PoolDemand.read(view, PoolDemand.newNodesAllowed(view), fit, gangs.heldBack(draft), draft);
            memory = gangs.after(demand);
            if (state.pool().adaptiveIdle() != null) {
                memory = memory.withIdleLearning(memory.idleLearning().withSubmissions(state.jobs().stream()
                        .map(JobDocument::submittedAt).filter(Objects::nonNull).toList(), state.now()));
            }
        }
        decideAll(view, draft, fresh ? inOrder(state.pool().decisions(), demand)
                : List.of(new ScaleUp(demand), new VanishedDrains()));
        return result(view.state(), memory, draft, demand, passedOn(view, demand));
    }

    /**
     * The ids of the queued jobs that fit the pool's running, booting or drained nodes, needing no new one: in a
     * group of pools serving one queue, what each pool's nodes already up can take is theirs before any pool
     * starts a node. Empty when the pool's instances or its agent's read are not known.
     */
    public Set<String> fitOnExisting(PoolState state) {
        if (!state.instances().known() || !PoolView.fresh(state, staleAfter)) {
            return Set.of();
        }
        PlanDraft unused = new PlanDraft();
        PoolView view = InstanceSorting.sort(state, PoolObservation.settle(state, unused), true, unused);
        PoolFit fit = matching.forPool(state.node());
        return PoolDemand.read(view, 0, fit, new GangWatch(view, fit).heldBack(unused)).placedOnExisting();
    }

    /** The pool's decisions as its configuration orders them; the administrator's run only with a fresh read. */
    private List<Decision> inOrder(List<String> names, Demand demand) {
        return names.stream().<Decision>map(name -> switch (name) {
            case PoolConfig.SCALE_UP -> new ScaleUp(demand);
            case PoolConfig.DRAIN_COMPLETION -> new DrainCompletion(demand);
            case PoolConfig.IDLE_DRAIN -> new IdleDrain(demand);
            default -> custom.containsKey(name) ? new CustomDecisionStep(custom.get(name), demand)
                    : (view, draft) -> draft.note(EventKind.CUSTOM_DECISION, "decision " + name + " is named in the "
                            + "pool's decisions but not installed: skipped");
        }).toList();
    }

    private static void decideAll(PoolView view, PlanDraft draft, List<Decision> decisions) {
        decisions.forEach(decision -> decision.decide(view, draft));
    }

    private PlanResult result(PoolView view, PlanDraft draft, Demand demand) {
        return result(view.state(), view.memory(), draft, demand, passedOn(view, demand));
    }

    private PlanResult result(PoolState state, ScalerStateDocument memory, PlanDraft draft, Demand demand,
            Set<String> passedOn) {
        return new PlanResult(new Plan(state.pool().name(), draft.actions(), draft.notes(), draft.foundList(),
                PoolView.considered(state).size(), state.instances().unknownBecause(), demand, passedOn), memory,
                state.instances().known() && PoolView.fresh(state, staleAfter)
                        ? WaitReasons.of(state.pool(), memory, draft.notes(), demand, state.now()) : null);
    }

    /**
     * The jobs the next pool of the group should take: those this pool cannot place, and, while it is in backoff or
     * protected, those that need new nodes. Nothing is passed on when the pool's agent's read is not known fresh: not
     * knowing is no reason to start nodes elsewhere.
     */
    private static Set<String> passedOn(PoolView view, Demand demand) {
        if (view.state().fallback() == null || !view.fresh()) {
            return Set.of();
        }
        Set<String> passed = new HashSet<>(demand.notPlaced());
        if (view.memory().inBackoff(view.now()) || view.memory().bootHealth().protectedNow()) {
            view.consideredJobs().stream().map(JobDocument::schedulerId)
                    .filter(id -> !demand.placedOnExisting().contains(id)).forEach(passed::add);
        }
        return passed;
    }
}
