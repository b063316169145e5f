package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Instant;
import java.util.List;

/**
 * Everything the planner knows about one pool at one moment.
 *
 * @param agentReadAt       when an agent serving this pool last read its scheduler successfully, or null if none has
 * @param canCreate         the provider can add instances when no stopped one is left
 * @param nodesOfOtherPools names of nodes the agents report in other pools: such a node has registered, even if
 *                          this pool's mapping does not claim it
 */
public record PoolState(
        PoolConfig pool,
        List<JobDocument> jobs,
        List<VmDocument> vms,
        List<DrainDocument> drains,
        List<PowerDocument> powerRequests,
        InstanceList instances,
        boolean canCreate,
        java.util.Set<String> nodesOfOtherPools,
        Instant agentReadAt,
        PoolHistory history,
        Instant now) {

    public PoolState {
        jobs = List.copyOf(jobs);
        vms = List.copyOf(vms);
        drains = List.copyOf(drains);
        powerRequests = List.copyOf(powerRequests);
        nodesOfOtherPools = java.util.Set.copyOf(nodesOfOtherPools);
    }
}
