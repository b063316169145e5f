package io.hpcscale.scaler.cloud;

/** An instance's power state, as far as scaling cares. */
public enum PowerState {
    STARTING,
    RUNNING,
    STOPPING,
    /** Powered off, deallocated or evicted: it can be started. */
    STOPPED;

    /** Counts against the pool's max. */
    public boolean active() {
        return this == STARTING || this == RUNNING;
    }
}
