package io.hpcscale.scaler.cloud;

import java.time.Duration;

/** The cloud asks us to slow down (HTTP 429); no call to it should be made before {@link #retryAfter()}. */
public class ThrottledException extends CloudException {
    private final Duration retryAfter;

    public ThrottledException(String message, Duration retryAfter) {
        super(message);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
