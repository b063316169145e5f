package io.hpcscale.agent.slurm;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One job (or array task) as squeue reports it, in either output format, before it is interpreted.
 *
 * @param id             the job id, or {@code <array job>_<task>} for an array task
 * @param partitions     the partitions it may run in, in the order given
 * @param state          the job state word (PENDING, RUNNING, ...)
 * @param reason         why a pending job waits (Resources, JobHeldUser, Dependency, ...)
 * @param priority       0 means held
 * @param nodes          nodes requested (pending) or allocated (running)
 * @param cpus           CPUs over all nodes
 * @param minCpusPerNode CPUs asked per node, 0 when not said
 * @param memoryPerNodeMb MB asked per node, or null
 * @param memoryPerCpuMb MB asked per CPU, or null
 * @param tresPerNode    the job's GRES per node (e.g. {@code gres:gpu:2}), or null
 * @param tresPerJob     the job's GRES in total, or null
 * @param exclusive      the job asked for whole nodes (--exclusive)
 * @param nodeList       the nodes it runs on (running jobs), as a hostlist
 * @param adminComment   the job's AdminComment (JSON output only), or null
 * @param timeLimit      the run time it asked for, or null for none or unlimited
 * @param startTime      when it started (running), when Slurm expects it to (pending), or null
 * @param endTime        when Slurm expects it to end: a running job's start plus its limit plus the time it was
 *                       suspended; or null
 */
record SlurmJob(
        String id,
        List<String> partitions,
        String state,
        String reason,
        long priority,
        int nodes,
        int cpus,
        int minCpusPerNode,
        Long memoryPerNodeMb,
        Long memoryPerCpuMb,
        String tresPerNode,
        String tresPerJob,
        boolean exclusive,
        Instant submittedAt,
        String nodeList,
        String features,
        String licenses,
        String adminComment,
        Duration timeLimit,
        Instant startTime,
        Instant endTime) {

    SlurmJob {
        partitions = List.copyOf(partitions);
    }

    SlurmJob withId(String newId) {
        return new SlurmJob(newId, partitions, state, reason, priority, nodes, cpus, minCpusPerNode, memoryPerNodeMb,
                memoryPerCpuMb, tresPerNode, tresPerJob, exclusive, submittedAt, nodeList, features, licenses,
                adminComment, timeLimit, startTime, endTime);
    }
}
