package io.hpcscale.scaler.cloud;

/** A cloud call failed; the message says what was asked and what came back. */
public class CloudException extends Exception {
    public CloudException(String message) {
        super(message);
    }

    public CloudException(String message, Throwable cause) {
        super(message, cause);
    }
}
