package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SettledSecondsTest {
    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final SettledSeconds settled = new SettledSeconds(nanos::get);

    @Test
    void aReadGoesBackOverItsLastSecondUntilThatSecondHasSettled() {
        settled.answered("p", 1_000);
        assertEquals(999, settled.since("p", 1_000), "just answered: go back over it, and one before");
        nanos.addAndGet(SettledSeconds.SETTLE.toNanos());
        assertEquals(1_001, settled.since("p", 1_000), "settled: start after it");
        assertEquals(1_999, settled.since("q", 2_000), "another pool has its own");

        settled.answered("p", 1_005);
        assertEquals(1_004, settled.since("p", 1_005), "a newer second starts again");
        settled.answered("p", 1_005);
        nanos.addAndGet(SettledSeconds.SETTLE.toNanos());
        assertEquals(1_006, settled.since("p", 1_005), "answering the same second again does not restart its clock");
    }
}
