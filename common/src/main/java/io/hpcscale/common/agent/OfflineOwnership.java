package io.hpcscale.common.agent;

import io.hpcscale.common.logging.OncePerKey;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.VmDocument;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whose mark an offline node carries when the scheduler shows none. A PBS server restart drops every node comment
 * and keeps {@code offline}: a node hpcscale drained would then look offline by an administrator forever, and its
 * paid instance would serve nothing. The evidence is in the node's last document, written by this agent: it said
 * {@code OfflineByHpcscale}, or it showed the node in service echoing the drain request that stands now, which the
 * agent writes just before its {@code pbsnodes -o} (so that a kill, or a store that is down, between the command and
 * the document of the offline state loses nothing). A drain request alone is no evidence: a node last shown in
 * service without that echo was taken offline by someone else (an administrator who did so just before the restart
 * left no comment to tell). Without evidence the mark is someone else's: hpcscale never takes ownership of a
 * mark that may not be its own. What the drain request decides is what follows: a drained node is marked again, a
 * node no longer drained is returned to service. And what this agent last read outranks the store: a mark it read
 * as someone else's stays theirs, though the write that would have recorded it failed and the store still shows the
 * node as hpcscale's (the soak found an administrator's node taken back that way after a restart).
 */
final class OfflineOwnership {
    private static final Logger log = LoggerFactory.getLogger(OfflineOwnership.class);

    private final OncePerKey reported = new OncePerKey();
    /**
     * Each node's mark as this agent last read it from the scheduler, never as it was inferred. An administrator's
     * mark read here is the administrator's even when the write that would have recorded it failed (the store was
     * down) and a restart then erased it: the store's evidence predates it, and would make the node hpcscale's. It
     * stays pinned while the node shows no mark; a mark read again replaces it.
     */
    private Map<String, OfflineMark> lastRead = new HashMap<>();

    /**
     * @param snapshot hpcscale's own marks and others' unchanged; the unmarked attributed
     * @param restored nodes found unmarked that the evidence shows hpcscale's: their mark is to be written again
     */
    record Resolved(SchedulerSnapshot snapshot, Set<String> restored) {
    }

    /**
     * @param previousByName the vm documents this agent wrote, by node name, as the store holds them
     */
    Resolved resolve(SchedulerSnapshot snapshot, Map<String, DrainDocument> drainsByNode,
            Map<String, VmDocument> previousByName) {
        return resolve(snapshot, drainsByNode, previousByName, Map.of());
    }

    /**
     * @param healthByNode the nodes' health checks: a node held for its check that has passed since is returned to
     *                     service, and its intent record is evidence although no hold stands any more
     */
    Resolved resolve(SchedulerSnapshot snapshot, Map<String, DrainDocument> drainsByNode,
            Map<String, VmDocument> previousByName, Map<String, HealthDocument> healthByNode) {
        remember(snapshot);
        if (snapshot.nodes().stream().noneMatch(n -> n.offline() == OfflineMark.UNMARKED)) {
            reported.endRound();
            return new Resolved(snapshot, Set.of());
        }
        List<SchedulerNode> nodes = new ArrayList<>(snapshot.nodes().size());
        Set<String> restored = new HashSet<>();
        for (SchedulerNode node : snapshot.nodes()) {
            if (node.offline() != OfflineMark.UNMARKED) {
                nodes.add(node);
                continue;
            }
            VmDocument previous = previousByName.get(node.name());
            DrainDocument drain = drainsByNode.get(node.name());
            boolean readAsOthers = lastRead.get(node.name()) == OfflineMark.OTHER;
            if (readAsOthers || !(evidenceOfOurs(previous, drain)
                    || heldForItsCheck(previous, healthByNode.get(node.name())))) {
                if (reported.first("other:" + node.name())) {
                    log.info("node={} is offline with no comment or reason, and {}: it is treated as an "
                            + "administrator's, and left alone", node.name(), readAsOthers
                                    ? "this agent's last read showed someone else's mark on it"
                                    : "nothing in the store shows that hpcscale took it offline");
                }
                nodes.add(node.withOffline(OfflineMark.OTHER));
                continue;
            }
            if (reported.first("ours:" + node.name())) {
                log.info("node={} is offline with no comment or reason (a PBS server restart drops them); hpcscale "
                        + "took it offline: it stays hpcscale's{}", node.name(), drain == null
                                ? ", and is returned to service" : node.down() ? "" : ", and its mark is written again");
            }
            nodes.add(node.withOffline(OfflineMark.HPCSCALE));
            restored.add(node.name());
        }
        reported.endRound();
        return new Resolved(new SchedulerSnapshot(snapshot.jobs(), nodes, snapshot.unreadableJobIds(),
                snapshot.unreadableNodes(), snapshot.queueLimits()), restored);
    }

    /** The marks as read; an administrator's mark erased since stays pinned, and an unreadable node keeps its own. */
    private void remember(SchedulerSnapshot read) {
        Map<String, OfflineMark> next = new HashMap<>();
        for (SchedulerNode node : read.nodes()) {
            boolean erased = node.offline() == OfflineMark.UNMARKED && lastRead.get(node.name()) == OfflineMark.OTHER;
            next.put(node.name(), erased ? OfflineMark.OTHER : node.offline());
        }
        read.unreadableNodes().stream().filter(lastRead::containsKey)
                .forEach(name -> next.put(name, lastRead.get(name)));
        lastRead = next;
    }

    /**
     * Whether the node's last document shows that an unmarked offline node is hpcscale's: it said
     * {@code OfflineByHpcscale}, or it showed the node in service echoing the drain request that stands now.
     */
    /**
     * Whether the node's last document records hpcscale's intent to hold it for a health check that has been
     * written since (the hold's time is the check's, or the start of time for a node never checked).
     */
    private static boolean heldForItsCheck(VmDocument previous, HealthDocument check) {
        return previous != null && check != null && !previous.offline() && previous.drainRequestedAt() != null
                && !check.checkedAt().isBefore(previous.drainRequestedAt());
    }

    static boolean evidenceOfOurs(VmDocument previous, DrainDocument drain) {
        if (previous == null) {
            return false;
        }
        return previous.offlineByHpcscale() || (!previous.offline() && drain != null
                && drain.requestedAt().equals(previous.drainRequestedAt()));
    }
}
