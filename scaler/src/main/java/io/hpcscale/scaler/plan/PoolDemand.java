package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.match.PoolFit;
import io.hpcscale.scaler.plan.DemandCalculator.Capacity;
import io.hpcscale.scaler.plan.DemandCalculator.Kind;
import io.hpcscale.scaler.pool.DemandModel;
import io.hpcscale.scaler.pool.PoolConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the pool's queued jobs need of it, given the room of its nodes in service, its booting instances and how
 * many nodes it may still add ({@link DemandCalculator} packs them). Read once per cycle, after the decisions that
 * take instances out of play, and handed to those that act on it.
 */
public final class PoolDemand {
    private PoolDemand() {
    }

    /**
     * How many nodes the pool may still add: up to its max, and, in a group with a fallback after it, no more
     * than it can start or create, so that jobs beyond go on to the fallback.
     */
    static int newNodesAllowed(PoolView view) {
        int room = Math.max(0, view.pool().max() - view.active());
        return view.state().fallback() != null && !view.state().canCreate()
                ? Math.min(room, view.stopped().size()) : room;
    }

    /** The demand; jobs that can never run in a pool without a fallback are noted in the draft. */
    static Demand read(PoolView view, int newNodesAllowed, PoolFit fit, Set<String> heldBack, PlanDraft draft) {
        Demand demand = read(view, newNodesAllowed, fit, heldBack);
        if (view.state().fallback() == null) {
            for (Demand.Unsatisfiable job : demand.unsatisfiable()) {
                draft.note(EventKind.UNSATISFIABLE, "job " + job.jobId() + " can never run in this pool: "
                        + job.reason());
            }
        }
        return demand;
    }

    /**
     * Why a new node of the pool could never take the job, as the planner judges it (its constraints, its chunks
     * against the shape, its nodes against max), or null when one could.
     */
    public static String whyNever(PoolConfig pool, PoolFit fit, JobDocument job) {
        return new DemandCalculator(pool.shape(), pool.max(), fit).whyNever(job);
    }

    /** @param heldBack jobs left out this cycle ({@link GangWatch}): not placed, and passed on in a group */
    static Demand read(PoolView view, int newNodesAllowed, PoolFit fit, Set<String> heldBack) {
        PoolConfig pool = view.pool();
        List<Capacity> capacity = new ArrayList<>();
        for (Instance instance : view.running()) {
            VmDocument vm = view.inService(instance);
            if (vm == null) {
                continue;
            }
            Kind kind = view.drained(instance) ? Kind.DRAINING : Kind.RUNNING;
            if (vm.exclusive()) {
                // A job holds it exclusively: the CPUs it shows unused take no other job.
                capacity.add(new Capacity(vm.name(), kind, 0, 0, 0, false));
                continue;
            }
            int cpus = vm.cpusTotal() > 0 ? vm.cpusTotal() - vm.cpusUsed() : pool.shape().cpus();
            long memoryMb = vm.memoryMb() > 0 ? vm.memoryMb() - vm.memoryMbUsed() : pool.shape().memoryMb();
            int gpus = vm.gpus() > 0 ? vm.gpus() - vm.gpusUsed() : pool.shape().gpus();
            capacity.add(new Capacity(vm.name(), kind, Math.max(0, cpus), Math.max(0, memoryMb),
                    Math.max(0, gpus), vm.idle() && vm.cpusUsed() == 0));
        }
        for (Instance instance : view.booting()) {
            capacity.add(new Capacity(instance.nodeName(), Kind.BOOTING, pool.shape().cpus(),
                    pool.shape().memoryMb(), pool.shape().gpus(), true));
        }
        Demand.Reservation reservation = pool.demand() == DemandModel.BACKFILL
                ? PoolReservation.of(view, capacity, newNodesAllowed, fit) : Demand.Reservation.NONE;
        if (heldBack.isEmpty() && reservation.held().isEmpty()) {
            return new DemandCalculator(pool.shape(), pool.max(), fit).compute(view.consideredJobs(), capacity,
                    newNodesAllowed);
        }
        List<JobDocument> jobs = view.consideredJobs().stream().filter(j -> !heldBack.contains(j.schedulerId())
                && !reservation.held().contains(j.schedulerId())).toList();
        Demand demand = new DemandCalculator(pool.shape(), pool.max(), fit).compute(jobs, capacity, newNodesAllowed);
        Set<String> notPlaced = new HashSet<>(demand.notPlaced());
        notPlaced.addAll(heldBack);
        notPlaced.addAll(reservation.held());
        // The reserved job does not fit the pool at its max: it is beyond the max, as the calculator would find it.
        int beyondMax = demand.jobsBeyondMax() + (reservation.forJob() == null ? 0 : 1);
        return new Demand(demand.jobsConsidered(), demand.newNodes(), demand.nodesInUse(),
                demand.drainsToCancel(), demand.unsatisfiable(), beyondMax, demand.placedOnExisting(),
                notPlaced, demand.placedOnNodesUp());
    }
}
