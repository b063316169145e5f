package io.hpcscale.scaler.removal;

/**
 * The removal queue could not be asked, or refused. A receive that fails with it is "unknown", never "no messages".
 * The message says which queue, what was asked and what came back; it never holds a key, a SAS or a connection
 * string.
 */
public final class RemovalQueueException extends Exception {

    /** What went wrong, for callers that act differently on each. */
    public enum Failure {
        /** The service could not be reached: refused, reset or timed-out connections, no such host. */
        UNREACHABLE,
        /** The service asks to slow down (429, or 503 ServerBusy). */
        THROTTLED,
        /** The service answered with a server error (5xx other than busy). */
        UNAVAILABLE,
        /** Signing in failed, or the identity or key may not do this (401, 403). */
        DENIED,
        /** The queue does not exist. */
        QUEUE_MISSING,
        /** Any other refusal (4xx). */
        REFUSED
    }

    private final Failure failure;

    public RemovalQueueException(Failure failure, String message) {
        super(message);
        this.failure = failure;
    }

    public Failure failure() {
        return failure;
    }
}
