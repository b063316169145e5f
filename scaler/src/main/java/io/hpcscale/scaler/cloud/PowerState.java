package io.hpcscale.scaler.cloud;

/** An instance's power state, as far as scaling cares. */
public enum PowerState {
    STARTING,
    RUNNING,
    STOPPING,
    /** Powered off, deallocated or evicted: it can be started. */
    STOPPED,
    /**
     * The cloud does not say (Azure's {@code PowerState/unknown}): neither capacity nor stopped, no boot is timed
     * from it and nothing is stopped on it; it may well run, so it counts against the pool's max.
     */
    UNKNOWN,
    /**
     * Its provisioning failed before it had a power state (Azure's {@code ProvisioningState/failed/<code>}): not
     * booting, and not started again by hpcscale.
     */
    FAILED;

    /** Starting or running: what hpcscale started and times, and counts against the pool's max. */
    public boolean active() {
        return this == STARTING || this == RUNNING;
    }
}
