package io.hpcscale.scaler.cloud;

/** The cloud has no capacity for the request (AllocationFailed, ZonalAllocationFailed, SkuNotAvailable). */
public class CapacityException extends CloudException {
    public CapacityException(String message) {
        super(message);
    }
}
