package io.hpcscale.common.agent;

import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One job as the scheduler reports it, before it is mapped to a pool.
 *
 * @param id     the scheduler's job id (array tasks have their own)
 * @param queues the queue, or the partitions it may run in, in the scheduler's order
 */
public record SchedulerJob(
        String id,
        List<String> queues,
        JobState state,
        List<Chunk> chunks,
        int nodes,
        Placement placement,
        boolean exclusive,
        Instant submittedAt) {

    public SchedulerJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(placement, "placement");
        queues = List.copyOf(queues);
        chunks = List.copyOf(chunks);
    }
}
