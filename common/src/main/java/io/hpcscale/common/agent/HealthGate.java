package io.hpcscale.common.agent;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.HealthDocument;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Health before service: a node whose check of its current boot is running or failed is held out of service, like a
 * node asked to drain, until it passes, whatever this agent's own configuration says of its pool: the node checked
 * itself because its configuration gives its pool a {@code healthCheck}, and a copy of the file that differs here
 * must not let it take jobs. A node that reported no check at all is left in service if it is (it ran before the
 * check was configured), and held in a pool this agent knows as checked if it is out of service by hpcscale's mark:
 * the scheduler's own configuration creates new nodes that way, so that they wait for their first check
 * (docs/operations.md).
 */
final class HealthGate {
    private final Set<String> checkedPools;

    HealthGate(Set<String> checkedPools) {
        this.checkedPools = Set.copyOf(checkedPools);
    }

    /** The drain requests with a hold added for each node whose check has not passed. */
    Map<String, DrainDocument> withHolds(Map<String, DrainDocument> drains, Map<String, HealthDocument> health,
            SchedulerSnapshot snapshot, PoolMap pools) {
        if (checkedPools.isEmpty() && health.isEmpty()) {
            return drains;
        }
        Map<String, DrainDocument> all = new HashMap<>();
        for (SchedulerNode node : snapshot.nodes()) {
            HealthDocument check = health.get(node.name());
            String pool = pools.poolForNode(node.name(), node.queues()).orElse(ClusterLoadDocument.META_POOL);
            if (check != null && check.state() != HealthDocument.State.PASSED) {
                all.put(node.name(), DrainDocument.request(pool, node.name(), check.holdReason(),
                        check.checkedAt()));
            } else if (check == null && node.offlineByHpcscale() && checkedPools.contains(pool)) {
                // Created out of service with hpcscale's mark, as docs/operations.md says, and never checked: it
                // waits for its first check rather than being returned to service for want of a drain request.
                all.put(node.name(), DrainDocument.request(pool, node.name(), "health check not reported yet",
                        Instant.EPOCH));
            }
        }
        all.putAll(drains);
        return all;
    }

    /**
     * The failed checks to mark held: the node is out of service (by hpcscale's mark or an administrator's), in a
     * read taken after the offline, so the node may let its scheduler daemon start.
     */
    static Map<String, HealthDocument> nowHeld(Map<String, HealthDocument> health, SchedulerSnapshot snapshot) {
        Map<String, HealthDocument> held = new HashMap<>();
        for (SchedulerNode node : snapshot.nodes()) {
            HealthDocument check = health.get(node.name());
            if (check != null && check.state() == HealthDocument.State.FAILED && check.heldAt() == null
                    && node.isOffline()) {
                held.put(node.name(), check);
            }
        }
        return held;
    }
}
