package io.hpcscale.common.store;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/** Counts a store's requests and request units; safe to update from several threads. */
final class UsageMeter {
    private final LongAdder requests = new LongAdder();
    private final DoubleAdder requestUnits = new DoubleAdder();

    void request(double units) {
        requests.increment();
        requestUnits.add(units);
    }

    StoreUsage usage() {
        return new StoreUsage(requests.sum(), requestUnits.sum());
    }
}
