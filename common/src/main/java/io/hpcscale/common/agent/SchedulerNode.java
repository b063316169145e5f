package io.hpcscale.common.agent;

import io.hpcscale.common.model.NodeJobStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One node as the scheduler reports it, before it is mapped to a pool.
 *
 * @param queues     queues or partitions the node serves, as the scheduler says, in order (may be empty)
 * @param rawState   the scheduler's state text
 * @param offline    whether the node is out of service, and whose mark says so
 * @param exclusive  a job holds the node exclusively (PBS {@code job-exclusive}): whatever CPUs it shows unused,
 *                   no other job may be placed on it
 * @param jobIds     the jobs the scheduler lists on the node; the agent adds every job whose own record names the
 *                   node as where it runs ({@link SchedulerJob#hosts})
 * @param lastUsedAt when the scheduler last saw a job on it, if it says; null otherwise
 */
public record SchedulerNode(
        String name,
        List<String> queues,
        NodeJobStatus jobStatus,
        String rawState,
        OfflineMark offline,
        boolean down,
        boolean exclusive,
        int cpusTotal,
        int cpusUsed,
        long memoryMb,
        long memoryMbUsed,
        int gpus,
        int gpusUsed,
        List<String> jobIds,
        Instant lastUsedAt) {

    public SchedulerNode {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(jobStatus, "jobStatus");
        Objects.requireNonNull(offline, "offline");
        queues = List.copyOf(queues);
        jobIds = List.copyOf(jobIds);
    }

    public boolean isOffline() {
        return offline.offline();
    }

    public boolean offlineByHpcscale() {
        return offline == OfflineMark.HPCSCALE;
    }

    public SchedulerNode withOffline(OfflineMark mark) {
        return new SchedulerNode(name, queues, jobStatus, rawState, mark, down, exclusive, cpusTotal, cpusUsed,
                memoryMb, memoryMbUsed, gpus, gpusUsed, jobIds, lastUsedAt);
    }

    /** The node also held by these jobs, which its listing may lack (a suspended job's, in PBS); busy if any. */
    public SchedulerNode alsoHeldBy(Collection<String> holding) {
        if (holding.isEmpty() || jobIds.containsAll(holding)) {
            return this;
        }
        Set<String> ids = new LinkedHashSet<>(jobIds);
        ids.addAll(holding);
        return new SchedulerNode(name, queues, NodeJobStatus.Busy, rawState, offline, down, exclusive, cpusTotal,
                cpusUsed, memoryMb, memoryMbUsed, gpus, gpusUsed, List.copyOf(ids), lastUsedAt);
    }
}
