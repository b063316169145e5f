package io.hpcscale.scaler.cloud;

import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;

/** The simulated cloud keeps the contract the real providers keep, so that what the simulator shows holds. */
class SimulatedCloudProviderContractTest extends CloudProviderContract {
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-26T09:00:00Z"));
    private final SimulatedCloud cloud = new SimulatedCloud(clock);

    @Override
    protected CloudProvider provider() {
        cloud.addScaleSet("p", 3, "p-vm", Duration.ofSeconds(90));
        return cloud.provider("p");
    }

    @Override
    protected void throttleTheNextListing() {
        cloud.throttle("p", 1, Duration.ofSeconds(120));
    }

    @Override
    protected void settle() {
        clock.advance(Duration.ofMinutes(3));
    }
}
