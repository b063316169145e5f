package io.hpcscale.scaler.plan;

import io.hpcscale.scaler.cloud.Instance;

/**
 * A pool's warm nodes: started and free, beyond what its queued jobs need. A pool with {@code warm = N} starts nodes
 * until N are warm and drains none for idleness that would leave fewer, so the next N nodes' worth of jobs start
 * without waiting for a boot.
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

    /** How many more nodes to start to have the pool's warm nodes, with a fresh read of its jobs. */
    static int missing(PoolView view, Demand demand) {
        return Math.max(0, view.pool().warm() - spare(view, demand));
    }
}
