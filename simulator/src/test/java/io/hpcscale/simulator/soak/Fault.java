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
    BROKEN_BOOT("broken-boots");

    private final String label;

    Fault(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

}
