package io.hpcscale.common.agent.cli;

import io.hpcscale.common.agent.DrainRight;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.QueueCheck;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What {@code check} looks at on the scheduler's host, changing nothing: a full read of the scheduler, the pools'
 * queues, which nodes each pool gets, nodes an administrator holds offline, and the right to take nodes out of
 * service, by the scheduler's harmless probe. (The store is {@link AgentCheckCommand}'s.)
 */
final class AgentCheck {
    /** One finding: ok, or a problem worded so an administrator can act on it. */
    record Finding(boolean ok, String sentence) {
    }

    private final SchedulerAdapter adapter;
    private final PoolMap pools;
    private final String word;

    AgentCheck(SchedulerAdapter adapter, PoolMap pools, String word) {
        this.adapter = adapter;
        this.pools = pools;
        this.word = word;
    }

    List<Finding> run() throws InterruptedException {
        List<Finding> findings = new ArrayList<>();
        SchedulerSnapshot snapshot;
        try {
            snapshot = adapter.read();
        } catch (SchedulerReadException e) {
            findings.add(new Finding(false, "scheduler: " + e.getMessage()));
            return findings;
        }
        findings.add(new Finding(true, "scheduler: read " + snapshot.jobs().size() + " jobs and "
                + snapshot.nodes().size() + " nodes" + unreadable(snapshot)));
        findings.addAll(queues());
        findings.add(nodesOfPools(snapshot));
        findings.add(drainRight());
        return findings;
    }

    private static String unreadable(SchedulerSnapshot snapshot) {
        int count = snapshot.unreadableJobIds().size() + snapshot.unreadableNodes().size();
        return count == 0 ? "" : " (" + count + " entries cannot be read and are kept as they were; the agent's "
                + "log names them)";
    }

    private List<Finding> queues() throws InterruptedException {
        try {
            Optional<java.util.Set<String>> existing = adapter.queueNames();
            if (existing.isEmpty()) {
                return List.of();
            }
            List<String> problems = QueueCheck.problems(pools, existing.get(), word);
            if (problems.isEmpty()) {
                return List.of(new Finding(true, word + "s: every pool's " + word + " exists"));
            }
            return problems.stream().map(p -> new Finding(false, p)).toList();
        } catch (SchedulerReadException e) {
            return List.of(new Finding(false, word + "s: " + e.getMessage()));
        }
    }

    /**
     * How many nodes each pool gets, and which of them an administrator holds offline: hpcscale never starts,
     * stops, drains or returns those.
     */
    private Finding nodesOfPools(SchedulerSnapshot snapshot) {
        Map<String, Integer> counts = new TreeMap<>();
        pools.pools().forEach(p -> counts.put(p, 0));
        List<String> held = new ArrayList<>();
        for (SchedulerNode node : snapshot.nodes()) {
            Optional<String> pool = pools.poolForNode(node.name(), node.queues());
            if (pool.isEmpty()) {
                continue;
            }
            counts.merge(pool.get(), 1, Integer::sum);
            if (node.isOffline() && !node.offlineByHpcscale()) {
                held.add(node.name() + " (" + node.rawState() + ")");
            }
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((pool, n) -> parts.add(pool + " " + n));
        return new Finding(true, "nodes by pool: " + String.join(", ", parts) + (held.isEmpty() ? ""
                : "; held offline by an administrator, so hpcscale leaves them alone: " + String.join(", ", held)));
    }

    private Finding drainRight() throws InterruptedException {
        Optional<DrainRight> right = adapter.probeDrainRight();
        if (right.isEmpty()) {
            return new Finding(true, "drain right: this scheduler offers no harmless probe; the first drain will "
                    + "tell");
        }
        return new Finding(Boolean.TRUE.equals(right.get().granted()), "drain right: " + right.get().detail());
    }
}
