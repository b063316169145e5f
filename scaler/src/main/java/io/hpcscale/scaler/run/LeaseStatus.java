package io.hpcscale.scaler.run;

import java.time.Instant;

/**
 * Whether this scaler may act, after its attempt to take or renew the lease.
 *
 * @param holder    who holds the lease (this scaler's own name when active), or null if unknown
 * @param expiresAt when the lease expires unless renewed, or null if unknown
 * @param problem   why the lease could not be read or written, or null
 */
public record LeaseStatus(State state, String holder, Instant expiresAt, String problem) {
    public enum State {
        /** This scaler holds the lease and may act. */
        ACTIVE,
        /** Another scaler holds a live lease: this one plans and does nothing. */
        STANDBY,
        /** The lease could not be read or written: this scaler acts only while its last renewal is still valid. */
        UNKNOWN
    }

    public boolean active() {
        return state == State.ACTIVE;
    }
}
