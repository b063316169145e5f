package io.hpcscale.common.agent;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.logging.OncePerKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.NodeNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's side of the drain handshake, decided on a fresh read of the scheduler: take requested nodes out of
 * service, and return nodes hpcscale took out once nobody asks for them any more and they have reported in. Nodes an
 * administrator took out of service are never touched.
 */
final class DrainResponder {
    private static final Logger log = LoggerFactory.getLogger(DrainResponder.class);

    private final PoolMap pools;
    private final OncePerKey reported = new OncePerKey();

    DrainResponder(PoolMap pools) {
        this.pools = pools;
    }

    record Actions(List<DrainDocument> takeOffline, List<SchedulerNode> bringBack) {
    }

    /**
     * @param markLost nodes the scheduler showed offline without hpcscale's mark although the store shows them
     *                 hpcscale's ({@link OfflineOwnership}): a drained one is marked again
     */
    Actions decide(Map<String, DrainDocument> drainsByNode, SchedulerSnapshot snapshot, Set<String> markLost) {
        List<DrainDocument> takeOffline = new ArrayList<>();
        List<SchedulerNode> bringBack = new ArrayList<>();
        Map<String, SchedulerNode> nodes = new java.util.HashMap<>();
        snapshot.nodes().forEach(n -> nodes.put(n.name(), n));

        for (DrainDocument drain : drainsByNode.values()) {
            if (!safe(drain.name())) {
                continue;
            }
            SchedulerNode node = nodes.get(drain.name());
            if (node == null) {
                if (!snapshot.unreadableNodes().contains(drain.name()) && reported.first("unknown:" + drain.name())) {
                    DrainFields.takeOffline(log.atWarn(), drain)
                            .addKeyValue(LogFields.OUTCOME, "refused: the scheduler does not list the node")
                            .log("pool={} node={} drain requested for a node the scheduler does not list; ignoring "
                                    + "it", drain.poolName(), drain.name());
                }
                continue;
            }
            if (!node.isOffline() || (markLost.contains(node.name()) && !node.down())) {
                takeOffline.add(drain);
            } else if (!node.offlineByHpcscale() && reported.first("admin:" + node.name())) {
                DrainFields.takeOffline(log.atInfo(), drain).addKeyValue(LogFields.OUTCOME,
                                "refused: an administrator has taken the node offline (state " + node.rawState() + ")")
                        .log("pool={} node={} drain requested, but an administrator has taken the node offline "
                                + "(state {}); hpcscale leaves it alone", drain.poolName(), node.name(),
                                node.rawState());
            }
        }
        for (SchedulerNode node : snapshot.nodes()) {
            if (!node.offlineByHpcscale() || drainsByNode.containsKey(node.name()) || !safe(node.name())) {
                continue;
            }
            Optional<String> pool = pools.poolForNode(node.name(), node.queues());
            if (pool.isEmpty()) {
                continue;
            }
            if (node.down()) {
                if (reported.first("waiting:" + node.name())) {
                    DrainFields.bringBack(log.atInfo(), pool.get(), node.name())
                            .addKeyValue(LogFields.OUTCOME, "waiting: the node has not reported in (now "
                                    + node.rawState() + ")")
                            .log("pool={} node={} is no longer drained; it will be returned to service once it "
                                    + "reports in (now {})", pool.get(), node.name(), node.rawState());
                }
                continue;
            }
            bringBack.add(node);
        }
        reported.endRound();
        return new Actions(takeOffline, bringBack);
    }

    /** Only host names reach a scheduler command, whatever the store or the scheduler's output says. */
    private boolean safe(String name) {
        if (NodeNames.isHostName(name)) {
            return true;
        }
        if (reported.first("unsafe:" + name)) {
            log.warn("node '{}' is not a host name (letters, digits, '.', '_' and '-', not first): hpcscale runs no "
                    + "scheduler command with it", name);
        }
        return false;
    }
}
