package io.hpcscale.simulator.soak;

/** Whose call reaches the store, cloud or scheduler: faults hit the processes, never the soak's own checks. */
enum Actor {
    SOAK,
    AGENT,
    SCALER_1,
    SCALER_2;

    static Actor scaler(int which) {
        return which == 0 ? SCALER_1 : SCALER_2;
    }
}
