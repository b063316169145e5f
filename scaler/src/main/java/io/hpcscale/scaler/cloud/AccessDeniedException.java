package io.hpcscale.scaler.cloud;

/** The cloud refused the call for want of a permission; the message names the action and what to grant. */
public class AccessDeniedException extends CloudException {
    public AccessDeniedException(String message) {
        super(message);
    }
}
