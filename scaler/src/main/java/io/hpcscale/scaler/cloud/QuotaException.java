package io.hpcscale.scaler.cloud;

import java.util.OptionalInt;

/** The request exceeds a quota; a smaller request may still fit. */
public class QuotaException extends CloudException {
    private final Integer instancesThatFit;

    public QuotaException(String message) {
        this(message, null);
    }

    /** @param instancesThatFit how many instances the quota still has room for, when the cloud says so */
    public QuotaException(String message, Integer instancesThatFit) {
        super(message);
        this.instancesThatFit = instancesThatFit;
    }

    public OptionalInt instancesThatFit() {
        return instancesThatFit == null ? OptionalInt.empty() : OptionalInt.of(instancesThatFit);
    }
}
