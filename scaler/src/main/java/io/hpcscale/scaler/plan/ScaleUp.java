package io.hpcscale.scaler.plan;

/**
 * Scale-up: queued jobs that the pool's nodes in service and booting cannot take get new nodes, and the pool is
 * kept at its min ({@link Growth} starts or creates them within max, step and backoff). Jobs beyond the max are
 * said once, offered to the group's next pool where there is one. A pool with {@code warm} nodes starts more until
 * that many are started and free beyond the jobs' needs ({@link WarmNodes}). With a stale agent read only the min is
 * kept.
 */
final class ScaleUp implements Decision {
    private final Demand demand;

    ScaleUp(Demand demand) {
        this.demand = demand;
    }

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        int active = view.active();
        boolean fresh = view.fresh();
        int min = view.pool().min();
        int countedForMin = view.countedForMin();
        int forMin = Math.max(0, min - countedForMin);
        int warm = fresh && view.warm() > 0 ? WarmNodes.missing(view, demand) : 0;
        if (warm > 0) {
            warm -= WarmNodes.keepDrained(view, draft, demand, warm);
        }
        int wanted = Math.max(forMin, fresh ? demand.newNodes() + warm : 0);
        if (demand.jobsBeyondMax() > 0) {
            String fallback = view.state().fallback();
            draft.note(EventKind.AT_MAX, Words.count(demand.jobsBeyondMax(), "queued job")
                    + (demand.jobsBeyondMax() == 1 ? " needs" : " need") + " more nodes than the pool's max of "
                    + view.pool().max() + (fallback == null ? " allows"
                            : " and its stopped instances allow: offered to pool " + fallback));
        }
        if (wanted == 0) {
            return;
        }
        int runnable = demand.jobsConsidered() - demand.unsatisfiable().size();
        String reason = demand.newNodes() > 0 && fresh
                ? Words.count(runnable, "queued job") + (runnable == 1 ? " needs " : " need ")
                        + Words.count(demand.newNodes(), "more node")
                        + (warm > 0 ? ", and " + Words.count(warm, "more warm node") + " for the pool's "
                                + view.warmDescribed() : "")
                : warm > forMin ? "the pool keeps " + view.warmDescribed() + " (started and free beyond what queued "
                        + "jobs need) and has " + (view.warm() - warm) + (view.warm() - warm == 1 ? " such node"
                        : " such nodes")
                : "the pool's min is " + min + " and " + Words.count(countedForMin, "instance") + " "
                        + (countedForMin == 1 ? "counts" : "count") + " for it";
        Growth.startOrCreate(view, draft, wanted, active, reason);
    }
}
