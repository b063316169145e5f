package io.hpcscale.scaler.pool;

/** What one instance of a pool offers to jobs. */
public record VmShape(int cpus, long memoryMb, int gpus) {
    public VmShape {
        if (cpus < 1 || memoryMb < 0 || gpus < 0) {
            throw new IllegalArgumentException("a VM shape needs at least one CPU and no negative resource");
        }
    }
}
