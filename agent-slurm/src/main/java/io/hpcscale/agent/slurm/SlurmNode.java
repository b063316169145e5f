package io.hpcscale.agent.slurm;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * One node as sinfo reports it, in either output format, before it is interpreted.
 *
 * @param state       the base state (idle, mixed, allocated, down, drained, ...), lower case
 * @param flags       state flags upper case (DRAIN, NOT_RESPONDING, POWERED_DOWN, POWERING_UP, CLOUD, ...)
 * @param allocCpus   CPUs allocated to jobs, or -1 when the format does not say
 * @param allocMemoryMb memory allocated to jobs, 0 when the format does not say
 */
record SlurmNode(
        String name,
        List<String> partitions,
        String state,
        Set<String> flags,
        int cpus,
        int allocCpus,
        long memoryMb,
        long allocMemoryMb,
        String gres,
        String gresUsed,
        String reason,
        Instant lastBusy) {

    SlurmNode {
        partitions = List.copyOf(partitions);
        flags = Set.copyOf(flags);
    }
}
