package io.hpcscale.common.agent;

import java.util.List;
import java.util.Set;

/**
 * Everything one read of the scheduler returned.
 *
 * @param unreadableJobIds  jobs that exist but could not be understood; their documents are kept as they were
 * @param unreadableNodes   nodes that exist but could not be understood; likewise kept
 */
public record SchedulerSnapshot(
        List<SchedulerJob> jobs,
        List<SchedulerNode> nodes,
        Set<String> unreadableJobIds,
        Set<String> unreadableNodes) {

    public SchedulerSnapshot {
        jobs = List.copyOf(jobs);
        nodes = List.copyOf(nodes);
        unreadableJobIds = Set.copyOf(unreadableJobIds);
        unreadableNodes = Set.copyOf(unreadableNodes);
    }

    public static SchedulerSnapshot of(List<SchedulerJob> jobs, List<SchedulerNode> nodes) {
        return new SchedulerSnapshot(jobs, nodes, Set.of(), Set.of());
    }
}
