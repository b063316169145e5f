package io.hpcscale.common.model;

/**
 * {@code count} identical pieces of a job, each needing this many CPUs, MiB of memory and GPUs on one node.
 */
public record Chunk(int count, int cpus, long memoryMb, int gpus) {
    public Chunk {
        if (count < 1) {
            throw new IllegalArgumentException("chunk count must be at least 1, was " + count);
        }
        if (cpus < 0 || memoryMb < 0 || gpus < 0) {
            throw new IllegalArgumentException("chunk resources must not be negative");
        }
    }

    public static Chunk ofCpus(int count, int cpus) {
        return new Chunk(count, cpus, 0, 0);
    }
}
