package io.hpcscale.scaler.cloud;

/** The scale set or instance does not exist. */
public class NotFoundException extends CloudException {
    public NotFoundException(String message) {
        super(message);
    }
}
