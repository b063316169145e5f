package io.hpcscale.scaler.run;

import io.hpcscale.scaler.cloud.CallGate;

/**
 * Whether the scaler may begin another call that changes something: not once it is shutting down (the call in flight
 * finishes, no new one begins), and not once its lease could have expired.
 */
public final class ActionGate implements CallGate {
    private volatile ScalerLease lease;
    private volatile boolean shuttingDown;

    /** From now on every action needs this lease to be held. */
    void requireLease(ScalerLease required) {
        this.lease = required;
    }

    /** No new action begins from now on. */
    public void shutDown() {
        shuttingDown = true;
    }

    public boolean shuttingDown() {
        return shuttingDown;
    }

    @Override
    public String closedBecause() {
        if (shuttingDown) {
            return "the scaler is shutting down";
        }
        ScalerLease required = lease;
        if (required != null && !required.holds()) {
            return "this scaler no longer holds the lease";
        }
        return null;
    }
}
