package io.hpcscale.common.agent;

import io.hpcscale.common.model.NodeJobStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One node as the scheduler reports it, before it is mapped to a pool.
 *
 * @param queues     queues or partitions the node serves, as the scheduler says, in order (may be empty)
 * @param rawState   the scheduler's state text
 * @param lastUsedAt when the scheduler last saw a job on it, if it says; null otherwise
 */
public record SchedulerNode(
        String name,
        List<String> queues,
        NodeJobStatus jobStatus,
        String rawState,
        boolean offline,
        boolean offlineByHpcscale,
        boolean down,
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
        queues = List.copyOf(queues);
        jobIds = List.copyOf(jobIds);
    }
}
