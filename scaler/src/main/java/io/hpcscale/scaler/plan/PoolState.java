package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.match.NodeProperties;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.removal.RemovalMessage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything the planner knows about one pool at one moment.
 *
 * @param agentReadAt       when an agent serving this pool last read its scheduler successfully, or null if none has
 * @param canCreate         the provider can add instances when no stopped one is left
 * @param spot              the cloud may take the pool's instances back at any time (Spot)
 * @param fallback          the next pool of its group, which takes the jobs this one cannot ({@link Plan#passedOn}),
 *                          or null
 * @param state             what the scaler remembers of the pool, as stored at the start of the cycle
 * @param poolOfNode        every node the agents report, with its pool: a node of this pool's scale set reported
 *                          in another pool has registered, even if this pool's mapping does not claim it. One map
 *                          for the whole cycle, shared by every pool's state.
 * @param target            a fixed pool's target as read this cycle; null for a pool whose queued jobs decide
 * @param removals          messages of nodes asking this pool to remove their instance, received this cycle
 * @param node              what the pool's node is and has, as jobs' constraints see it
 * @param notices           what the platform announced for nodes, by node name key ({@link NoticeDocument}): one map
 *                          for the whole cycle, shared by every pool's state
 * @param health            the nodes' health checks, by node name key ({@link HealthDocument}), shared the same way
 */
public record PoolState(
        PoolConfig pool,
        List<JobDocument> jobs,
        List<VmDocument> vms,
        List<DrainDocument> drains,
        List<PowerDocument> powerRequests,
        InstanceList instances,
        boolean canCreate,
        boolean spot,
        Map<String, String> poolOfNode,
        Instant agentReadAt,
        ScalerStateDocument state,
        Instant now,
        String fallback,
        TargetReading target,
        List<RemovalMessage.Request> removals,
        NodeProperties node,
        Map<String, NoticeDocument> notices,
        Map<String, HealthDocument> health) {

    public PoolState {
        jobs = List.copyOf(jobs);
        vms = List.copyOf(vms);
        drains = List.copyOf(drains);
        powerRequests = List.copyOf(powerRequests);
        poolOfNode = Map.copyOf(poolOfNode);
        removals = removals == null ? List.of() : List.copyOf(removals);
        Objects.requireNonNull(node, "node");
        notices = Map.copyOf(notices);
        health = Map.copyOf(health);
    }

    /**
     * The node's health check, if the pool checks its nodes. It is of the node's current boot whenever the node is
     * up: the node writes it, {@code PENDING} first, before its scheduler daemon starts.
     */
    public HealthDocument healthOf(String node) {
        HealthDocument check = health.get(NodeNames.key(node));
        return pool.healthChecked() ? check : null;
    }

    /** What the platform announced for this node, if anything. */
    public NoticeDocument noticeOf(String node) {
        return notices.get(NodeNames.key(node));
    }

    /** Whether an agent reports this node in a pool other than this one; {@code poolOfNode} is by name key. */
    public boolean reportedInAnotherPool(String node) {
        String owner = poolOfNode.get(NodeNames.key(node));
        return owner != null && !owner.equals(pool.name());
    }
}
