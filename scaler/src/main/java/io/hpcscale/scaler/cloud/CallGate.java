package io.hpcscale.scaler.cloud;

/**
 * Whether a provider may begin another call to the cloud. A provider that makes several calls for one request
 * (a command per instance, a call per VM) asks before each: once the scaler is shutting down or has lost its lease,
 * the call in flight finishes and no new one begins.
 */
public interface CallGate {
    CallGate ALWAYS_OPEN = () -> null;

    /** Why no call may begin now, or null when one may. */
    String closedBecause();

    default boolean open() {
        return closedBecause() == null;
    }
}
