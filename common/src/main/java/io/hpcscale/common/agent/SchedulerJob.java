package io.hpcscale.common.agent;

import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.JobTimes;
import io.hpcscale.common.model.Placement;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One job as the scheduler reports it, before it is mapped to a pool.
 *
 * @param id     the scheduler's job id (array tasks have their own)
 * @param queues the queue, or the partitions it may run in, in the scheduler's order
 * @param hosts  the nodes the job's own record names as where it runs (PBS {@code exec_host}, Slurm's node list),
 *               whatever its state: a suspended job, or one being started, may be missing from its nodes' listing,
 *               and these nodes are occupied all the same; empty for a job that holds no node
 * @param waitingFor why a job that is not queued for nodes waits, as the scheduler says (a Kueue workload whose
 *                   ClusterQueue has no quota left), or null
 * @param asks   what it asks for beyond its chunks: constraints on its nodes, licences, its owner
 * @param times  the run time it asked for and, running, when it started
 */
public record SchedulerJob(
        String id,
        List<String> queues,
        JobState state,
        List<Chunk> chunks,
        int nodes,
        Placement placement,
        boolean exclusive,
        Instant submittedAt,
        List<String> hosts,
        String waitingFor,
        JobAsks asks,
        JobTimes times) {

    public SchedulerJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(placement, "placement");
        queues = List.copyOf(queues);
        chunks = List.copyOf(chunks);
        hosts = List.copyOf(hosts);
        asks = asks == null ? JobAsks.NONE : asks;
        times = times == null ? JobTimes.UNKNOWN : times;
    }

    public SchedulerJob(String id, List<String> queues, JobState state, List<Chunk> chunks, int nodes,
            Placement placement, boolean exclusive, Instant submittedAt, List<String> hosts, String waitingFor,
            JobAsks asks) {
        this(id, queues, state, chunks, nodes, placement, exclusive, submittedAt, hosts, waitingFor, asks,
                JobTimes.UNKNOWN);
    }

    /** This job, with what it says of its time. */
    public SchedulerJob withTimes(JobTimes jobTimes) {
        return new SchedulerJob(id, queues, state, chunks, nodes, placement, exclusive, submittedAt, hosts, waitingFor,
                asks, jobTimes);
    }

    public SchedulerJob(String id, List<String> queues, JobState state, List<Chunk> chunks, int nodes,
            Placement placement, boolean exclusive, Instant submittedAt, List<String> hosts, String waitingFor) {
        this(id, queues, state, chunks, nodes, placement, exclusive, submittedAt, hosts, waitingFor, JobAsks.NONE);
    }

    /** This job, waiting for the reason given rather than queued for nodes: more nodes would not start it. */
    public SchedulerJob waiting(String reason) {
        return new SchedulerJob(id, queues, JobState.Waiting, chunks, nodes, placement, exclusive, submittedAt, hosts,
                reason, asks, times);
    }

    /** CPUs over all its chunks. */
    public long totalCpus() {
        long total = 0;
        for (Chunk chunk : chunks) {
            total += (long) chunk.count() * chunk.cpus();
        }
        return total;
    }

    public SchedulerJob(String id, List<String> queues, JobState state, List<Chunk> chunks, int nodes,
            Placement placement, boolean exclusive, Instant submittedAt, List<String> hosts) {
        this(id, queues, state, chunks, nodes, placement, exclusive, submittedAt, hosts, null, JobAsks.NONE);
    }

    /** A job that holds no node yet. */
    public SchedulerJob(String id, List<String> queues, JobState state, List<Chunk> chunks, int nodes,
            Placement placement, boolean exclusive, Instant submittedAt) {
        this(id, queues, state, chunks, nodes, placement, exclusive, submittedAt, List.of(), null, JobAsks.NONE);
    }
}
