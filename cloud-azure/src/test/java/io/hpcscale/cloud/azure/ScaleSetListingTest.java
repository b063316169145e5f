package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.cloud.azure.fake.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A scale set's last listing with hpcscale's own calls laid over it. */
class ScaleSetListingTest {
    private final MutableClock clock = MutableClock.startingNow();
    private final ScaleSetListing listing = new ScaleSetListing(clock, Duration.ofSeconds(60));

    private static AzureVm vm(String name, String power) {
        return new AzureVm(name, name, name, Map.of(), power, "Succeeded", null, false);
    }

    private PowerState stateOf(String name) {
        return listing.states().entrySet().stream().filter(e -> e.getKey().vmName().equals(name)).findFirst()
                .orElseThrow().getValue();
    }

    @Test
    void aFinishedStartShowsRunningAndASentOneStarting() {
        listing.listed(List.of(vm("a", "deallocated"), vm("b", "deallocated")), 1, clock.instant());

        listing.asked(PowerCall.START, List.of("a"), true);
        listing.asked(PowerCall.START, List.of("b"), false);

        assertEquals(PowerState.RUNNING, stateOf("a"));
        assertEquals(PowerState.STARTING, stateOf("b"));
    }

    @Test
    void aListingMadeRightAfterASentCallDoesNotUndoIt() {
        listing.listed(List.of(vm("a", "running")), 1, clock.instant());
        listing.asked(PowerCall.DEALLOCATE, List.of("a"), false);
        clock.advance(Duration.ofSeconds(5));

        listing.listed(List.of(vm("a", "running")), 1, clock.instant());
        assertEquals(PowerState.STOPPING, stateOf("a"), "Azure may not show a call sent a moment ago yet");

        clock.advance(ScaleSetListing.SETTLING);
        listing.listed(List.of(vm("a", "running")), 1, clock.instant());
        assertEquals(PowerState.RUNNING, stateOf("a"), "after a while the listing is believed");
    }

    @Test
    void aGrowthMakesTheListingUnusableUntilListedAgain() {
        listing.listed(List.of(vm("a", "running")), 1, clock.instant());
        assertFalse(listing.due());

        listing.grew();

        assertTrue(listing.due());
        assertFalse(listing.usable());
    }
}
