package io.hpcscale.common.agent;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one read of the scheduler returned.
 *
 * @param unreadableJobIds  jobs that exist but could not be understood; their documents are kept as they were
 * @param unreadableNodes   nodes that exist but could not be understood; likewise kept
 * @param queueLimits       the limits the scheduler puts on each queue ({@link QueueLimit}), by queue name
 */
public record SchedulerSnapshot(
        List<SchedulerJob> jobs,
        List<SchedulerNode> nodes,
        Set<String> unreadableJobIds,
        Set<String> unreadableNodes,
        Map<String, List<QueueLimit>> queueLimits) {

    public SchedulerSnapshot {
        jobs = List.copyOf(jobs);
        nodes = List.copyOf(nodes);
        unreadableJobIds = Set.copyOf(unreadableJobIds);
        unreadableNodes = Set.copyOf(unreadableNodes);
        queueLimits = Map.copyOf(queueLimits);
    }

    public SchedulerSnapshot(List<SchedulerJob> jobs, List<SchedulerNode> nodes, Set<String> unreadableJobIds,
            Set<String> unreadableNodes) {
        this(jobs, nodes, unreadableJobIds, unreadableNodes, Map.of());
    }

    /** The same read with these jobs. */
    public SchedulerSnapshot withJobs(List<SchedulerJob> changed) {
        return new SchedulerSnapshot(changed, nodes, unreadableJobIds, unreadableNodes, queueLimits);
    }

    public static SchedulerSnapshot of(List<SchedulerJob> jobs, List<SchedulerNode> nodes) {
        return new SchedulerSnapshot(jobs, nodes, Set.of(), Set.of());
    }
}
