package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.cloud.azure.fake.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** hpcscale's share of Compute's listing budget: room taken at once, turns when short, and Azure's own word. */
class ComputeBudgetTest {
    private final MutableClock clock = MutableClock.startingNow();
    private final ComputeBudget budget = new ComputeBudget(clock);

    @Test
    void roomIsTakenWhenGrantedSoThatTwoPoolsCannotBothSpendIt() {
        assertEquals(Duration.ZERO, budget.waitBeforeListing("a", 15, false));

        assertTrue(budget.waitBeforeListing("b", 15, false).compareTo(Duration.ZERO) > 0,
                "a tenth of 190 is 19 pages: the second 15 waits");
    }

    @Test
    void theScaleSetListedLongestAgoGoesFirstWhenTheBudgetIsShort() {
        budget.waitBeforeListing("a", 15, false);
        budget.spentOnListing("a", 15);
        assertTrue(budget.waitBeforeListing("b", 10, false).compareTo(Duration.ZERO) > 0, "b waits for room");
        clock.advance(Duration.ofSeconds(15));

        assertEquals(ComputeBudget.TURN, budget.waitBeforeListing("a", 10, true),
                "room for one listing: b, never listed, goes first");
        assertEquals(Duration.ZERO, budget.waitBeforeListing("b", 10, false));
    }

    @Test
    void withRoomForBothNobodyWaitsItsTurn() {
        budget.waitBeforeListing("a", 2, false);
        budget.spentOnListing("a", 2);
        clock.advance(Duration.ofMinutes(5));
        budget.waitBeforeListing("b", 2, false);

        assertEquals(Duration.ZERO, budget.waitBeforeListing("a", 2, true));
    }

    @Test
    void aScaleSetWhoseListingFailsHoldsNoOtherBack() {
        budget.waitBeforeListing("a", 2, false);
        budget.spentOnListing("a", 2);
        clock.advance(Duration.ofMinutes(5));
        assertEquals(Duration.ZERO, budget.waitBeforeListing("broken", 10, false));
        budget.listingFailed("broken");
        clock.advance(Duration.ofMinutes(1));

        assertEquals(Duration.ZERO, budget.waitBeforeListing("a", 10, true));
    }

    @Test
    void aBucketAzureReportsLowStopsListingUntilItIsBackAtHalf() {
        budget.observe("Microsoft.Compute/HighCostGetVMScaleSet3Min;20,Microsoft.Compute/HighCostGetVMScaleSet30Min;800");

        Duration wait = budget.waitForAzure();

        assertEquals(71, wait.toSeconds(), "from 20 to 95 of 190 at 190 per 3 minutes");
        clock.advance(wait);
        assertEquals(Duration.ZERO, budget.waitForAzure());
    }
}
