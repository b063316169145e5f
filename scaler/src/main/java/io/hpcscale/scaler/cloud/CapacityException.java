package io.hpcscale.scaler.cloud;

/**
 * The cloud has no capacity for the request (AllocationFailed, ZonalAllocationFailed, SkuNotAvailable, a Spot price
 * below the market's).
 */
public class CapacityException extends CloudException {
    private final boolean permanent;

    public CapacityException(String message) {
        this(message, false);
    }

    /**
     * @param permanent asking again changes nothing until the configuration does (the subscription may not use the
     *                  VM size in this region): the provider stops asking, the pool says so
     */
    public CapacityException(String message, boolean permanent) {
        super(message);
        this.permanent = permanent;
    }

    public boolean permanent() {
        return permanent;
    }
}
