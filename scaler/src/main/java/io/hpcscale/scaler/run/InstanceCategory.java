package io.hpcscale.scaler.run;

/**
 * What an instance is doing, as an administrator asks it: the rows of {@code status} and the {@code state} label of
 * the instances metric. Every instance of a listed pool is in exactly one.
 */
public enum InstanceCategory {
    /** Running, its node runs a job. */
    BUSY("running-busy"),
    /** Running, its node runs no job and is not being drained. */
    FREE("running-free"),
    /** Starting, or running with a node the scheduler has not reported yet. */
    BOOTING("booting"),
    /** Running, its node drained (asked or done) for a stop. */
    DRAINING("draining"),
    /** Asked to stop, not stopped yet. */
    STOPPING("stopping"),
    /** Stopped: can be started. */
    STOPPED("stopped"),
    /** Stopped with its memory saved ({@code stopAction = hibernate}): a start resumes it. */
    HIBERNATED("hibernated"),
    /** Stopped after its boot failed, or its provisioning failed. */
    FAILED("failed"),
    /** The cloud does not say what it does: nothing is done to it. */
    UNKNOWN("unknown"),
    /** Stopped by the cloud taking a Spot instance back. */
    EVICTED("evicted");

    private final String wireName;

    InstanceCategory(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }
}
