package io.hpcscale.common.store;

/**
 * What a store has cost since it was opened: requests made, and request units charged (Cosmos DB; zero for the
 * embedded stores). A cycle's cost is the difference of two readings.
 */
public record StoreUsage(long requests, double requestUnits) {
    public static final StoreUsage NONE = new StoreUsage(0, 0);

    public StoreUsage minus(StoreUsage earlier) {
        return new StoreUsage(requests - earlier.requests, requestUnits - earlier.requestUnits);
    }
}
