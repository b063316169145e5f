package io.hpcscale.scaler.fixed;

/** A fixed pool's target could not be read or written, or is not a count; the message says what to do. */
public final class TargetUnavailableException extends Exception {
    public TargetUnavailableException(String message) {
        super(message);
    }

    public TargetUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
