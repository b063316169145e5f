package io.hpcscale.scaler.cloud;

/** The request exceeds a quota; a smaller request may still fit. */
public class QuotaException extends CloudException {
    public QuotaException(String message) {
        super(message);
    }
}
