package io.hpcscale.scaler.documents;

import java.time.Instant;

/**
 * What the scaler knows about one instance beyond what the cloud lists.
 *
 * @param startedAt   when hpcscale asked it to start, or when it was first seen active if hpcscale did not start it
 * @param startReason why hpcscale started it; null when it was found active
 * @param booting     started (or found starting) and its node has not reported to the scheduler yet: the boot
 *                    timeout runs from {@code startedAt}
 * @param stoppedAt   when hpcscale last stopped it, or null
 * @param stopKind    why, with {@code stopReason} in words
 * @param pending     an action asked of the cloud whose outcome is not known yet, or null
 */
public record InstanceRecord(
        Instant startedAt,
        String startReason,
        boolean booting,
        Instant stoppedAt,
        StopKind stopKind,
        String stopReason,
        Pending pending) {

    /**
     * An action written down before the cloud is asked to do it, so that a scaler killed during the call knows,
     * when it starts again, what may have happened.
     *
     * @param stopKind null for a start
     */
    public record Pending(StopKind stopKind, Instant at, String reason) {
        public boolean start() {
            return stopKind == null;
        }
    }

    /** An instance hpcscale knows nothing of yet. */
    public static InstanceRecord blank() {
        return new InstanceRecord(null, null, false, null, null, null, null);
    }

    public static InstanceRecord seenActive(Instant at, boolean booting) {
        return new InstanceRecord(at, null, booting, null, null, null, null);
    }

    public boolean startedByHpcscale() {
        return startReason != null;
    }

    /** When its boot began, or null if it is not booting. */
    public Instant bootingSince() {
        return booting ? startedAt : null;
    }

    /** Last known running (or starting): started or found active after its last stop, with no action pending. */
    public boolean running() {
        return pending == null && startedAt != null && (stoppedAt == null || stoppedAt.isBefore(startedAt));
    }

    public InstanceRecord started(Instant at, String reason) {
        return new InstanceRecord(at, reason, true, stoppedAt, stopKind, stopReason, null);
    }

    /** Found starting without hpcscale having started it: its boot is timed from now. */
    public InstanceRecord bootSeen(Instant at) {
        return new InstanceRecord(at, null, true, stoppedAt, stopKind, stopReason, pending);
    }

    /** Its node reported to the scheduler, or it stopped: either way it no longer boots. */
    public InstanceRecord bootEnded() {
        return new InstanceRecord(startedAt, startReason, false, stoppedAt, stopKind, stopReason, pending);
    }

    public InstanceRecord stopped(Instant at, StopKind kind, String reason) {
        return new InstanceRecord(startedAt, startReason, false, at, kind, reason, null);
    }

    public InstanceRecord withPending(Pending newPending) {
        return new InstanceRecord(startedAt, startReason, booting, stoppedAt, stopKind, stopReason, newPending);
    }
}
