package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.NodeNames;
import io.hpcscale.scaler.cloud.Instance;

/**
 * A pool's warm nodes: started and free, or booting, beyond what its queued jobs need. A pool with {@code warm = N}
 * withdraws drains, then starts nodes, until N are warm, and drains none for idleness that would leave fewer, so the
 * next N nodes' worth of jobs start without waiting for a boot. The min's nodes count: warm is how many are free, not
 * how many more. With {@code warmSchedule}, N is the count of the window open now: when it closes, the nodes it kept
 * are drained as any idle node is.
 */
final class WarmNodes {
    private WarmNodes() {
    }

    /** Nodes in service and free, or booting, that the queued jobs were not placed on; drained ones are leaving. */
    static int spare(PoolView view, Demand demand) {
        int spare = 0;
        for (Instance instance : view.running()) {
            if (view.idleFor(instance).isPresent() && !view.drained(instance)
                    && !demand.nodesInUse().contains(view.nodeOf(instance))) {
                spare++;
            }
        }
        for (Instance instance : view.booting()) {
            if (!demand.nodesInUse().contains(instance.nodeName())) {
                spare++;
            }
        }
        return spare;
    }

    /** How many nodes the pool lacks of its warm nodes, with a fresh read of its jobs. */
    static int missing(PoolView view, Demand demand) {
        return Math.max(0, view.warm() - spare(view, demand));
    }

    /**
     * Withdraws the drain of up to {@code wanted} drained nodes still in service, rather than stopping them and
     * starting others in their place; returns how many.
     */
    static int keepDrained(PoolView view, PlanDraft draft, Demand demand, int wanted) {
        int kept = 0;
        for (Instance instance : view.running()) {
            if (kept == wanted) {
                break;
            }
            String node = view.nodeOf(instance);
            if (view.drained(instance) && view.inService(instance) != null
                    && !draft.cancelledDrains().contains(NodeNames.key(node))
                    && !demand.drainsToCancel().contains(node)) {
                draft.add(new Plan.CancelDrain(node, "the pool keeps " + view.warmDescribed()));
                kept++;
            }
        }
        return kept;
    }
}
