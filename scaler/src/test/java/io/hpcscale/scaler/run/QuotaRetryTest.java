package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.QuotaException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QuotaRetryTest {
    private static List<CloudException> quota(int refused, Integer fits) {
        return Collections.nCopies(refused, new QuotaException("over the regional vCPU quota", fits));
    }

    @Test
    void whatTheCloudSaysFitsIsTriedOnceThenNothingMore() {
        assertEquals(Optional.of(new QuotaRetry(3, true)), QuotaRetry.after(quota(8, 3), false));
        assertEquals(Optional.empty(), QuotaRetry.after(quota(3, 2), true), "tried what fits");
        assertEquals(Optional.empty(), QuotaRetry.after(quota(3, 3), false), "no fewer fit");
        assertEquals(Optional.empty(), QuotaRetry.after(quota(3, 0), false), "none fits");
    }

    @Test
    void withoutACountTheAttemptIsHalvedUntilOneIsLeft() {
        assertEquals(Optional.of(new QuotaRetry(4, false)), QuotaRetry.after(quota(8, null), false));
        assertEquals(Optional.of(new QuotaRetry(1, false)), QuotaRetry.after(quota(3, null), false));
        assertEquals(Optional.empty(), QuotaRetry.after(quota(1, null), false));
    }

    @Test
    void anyOtherRefusalAmongThemIsNoQuotaRetry() {
        List<CloudException> mixed = List.of(new QuotaException("quota"),
                new CapacityException("AllocationFailed"));
        assertEquals(Optional.empty(), QuotaRetry.after(mixed, false));
        assertEquals(Optional.empty(), QuotaRetry.after(List.of(), false));
    }
}
