package io.hpcscale.common.model;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One job as the agent last read it: what it asks for and where it stands.
 *
 * @param nodes       nodes the job asks for, as the scheduler counts them
 * @param submittedAt when the job entered its queue, or null when the scheduler does not say
 * @param agent       id of the agent that writes this document
 * @param waitingFor  why a job that is not queued for nodes waits, as the scheduler says, or null
 * @param constraints what the job asks of its nodes beyond its chunks, in the constraint language (a JSON array of
 *                    constraint objects, as the agent wrote it: PBS custom resources in select, Slurm features), or
 *                    null when it asks nothing more
 * @param times       the run time it asked for and, running, when it started ({@link JobTimes#UNKNOWN} when the
 *                    scheduler does not say)
 */
public record JobDocument(
        String id,
        String poolName,
        String schedulerId,
        String queueName,
        JobState status,
        int nodes,
        List<Chunk> chunks,
        Placement placement,
        boolean exclusive,
        Instant submittedAt,
        String agent,
        String waitingFor,
        String constraints,
        JobTimes times) implements ClusterLoadDocument {

    public JobDocument {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(poolName, "poolName");
        Objects.requireNonNull(schedulerId, "schedulerId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(placement, "placement");
        chunks = List.copyOf(chunks);
        times = times == null ? JobTimes.UNKNOWN : times;
    }

    public JobDocument(String id, String poolName, String schedulerId, String queueName, JobState status, int nodes,
            List<Chunk> chunks, Placement placement, boolean exclusive, Instant submittedAt, String agent,
            String waitingFor, String constraints) {
        this(id, poolName, schedulerId, queueName, status, nodes, chunks, placement, exclusive, submittedAt, agent,
                waitingFor, constraints, JobTimes.UNKNOWN);
    }

    public JobDocument(String id, String poolName, String schedulerId, String queueName, JobState status, int nodes,
            List<Chunk> chunks, Placement placement, boolean exclusive, Instant submittedAt, String agent) {
        this(id, poolName, schedulerId, queueName, status, nodes, chunks, placement, exclusive, submittedAt, agent,
                null, null, JobTimes.UNKNOWN);
    }

    public JobDocument(String id, String poolName, String schedulerId, String queueName, JobState status, int nodes,
            List<Chunk> chunks, Placement placement, boolean exclusive, Instant submittedAt, String agent,
            String waitingFor) {
        this(id, poolName, schedulerId, queueName, status, nodes, chunks, placement, exclusive, submittedAt, agent,
                waitingFor, null, JobTimes.UNKNOWN);
    }

    @Override
    public DocumentType type() {
        return DocumentType.JOBS;
    }

    // Plain loops: the planner asks these of every queued job of every pool each cycle, and streams' garbage
    // showed as a fifth of a 1,000-pool cycle.

    /** Total CPUs over all chunks. */
    public long totalCpus() {
        long total = 0;
        for (Chunk chunk : chunks) {
            total += (long) chunk.count() * chunk.cpus();
        }
        return total;
    }

    public int chunkCount() {
        int count = 0;
        for (Chunk chunk : chunks) {
            count += chunk.count();
        }
        return count;
    }
}
