package io.hpcscale.simulator.soak;

/** A kind of fault the soak injects, with the name its summary line gives it. */
enum Fault {
    STORE_DOWN("store-down"),
    STORE_SLOW("store-slow"),
    STORE_THROTTLED("store-throttled"),
    CLOUD_429("cloud-429"),
    CLOUD_FAIL("cloud-fail"),
    CLOUD_UNFINISHED("cloud-unfinished"),
    SCHEDULER_FAIL("scheduler-fail"),
    AGENT_RESTART("agent-restart"),
    SCALER_RESTART("scaler-restart"),
    SECOND_SCALER("second-scaler"),
    EVICTION("evictions"),
    BROKEN_BOOT("broken-boots"),
    /** A running job suspended: its node then looks free and empty in the scheduler's node listing. */
    SUSPENDED_JOB("suspended-jobs"),
    /** The scheduler's server restarts: node comments lost, nodes state-unknown, starting jobs unlisted. */
    SCHEDULER_RESTART("scheduler-restarts"),
    /** An administrator takes a node offline (given back in the calm end). */
    ADMIN_MARK("admin-marks"),
    /** A node's health check fails at its next boot, in a pool with a healthCheck. */
    FAILED_CHECK("failed-health-checks"),
    /** Azure announces a Spot eviction to the node (Preempt) 30 s before it evicts it. */
    PREEMPT_NOTICE("preempt-notices"),
    /** Someone starts an instance outside hpcscale whose node never reports: an orphan. */
    ORPHAN("orphans");

    private final String label;

    Fault(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

}
