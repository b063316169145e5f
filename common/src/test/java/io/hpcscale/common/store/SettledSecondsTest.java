package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SettledSecondsTest {
    private final AtomicLong nanos = new AtomicLong(5_000_000_000L);
    private final SettledSeconds settled = new SettledSeconds(nanos::get);

    @Test
    void aSecondIsSettledOnlyByAReadBegunLongEnoughAfterItWasFirstSeen() {
        settled.answered("p", 1_000, settled.now());
        assertEquals(999, settled.since("p", 1_000), "just seen: go back over it, and one before");
        nanos.addAndGet(SettledSeconds.SETTLE.toNanos());
        assertEquals(999, settled.since("p", 1_000),
                "time alone settles nothing: a write of that second may have committed after the first read");
        long began = settled.now();
        settled.answered("p", 1_000, began);
        assertEquals(1_001, settled.since("p", 1_000), "a read begun 2 s later went back over it: settled");
        assertEquals(1_999, settled.since("q", 2_000), "another pool has its own");
    }

    @Test
    void aReadBegunTooSoonDoesNotSettleANewerSecondStartsAgain() {
        settled.answered("p", 1_000, settled.now());
        nanos.addAndGet(SettledSeconds.SETTLE.toNanos() / 2);
        settled.answered("p", 1_000, settled.now());
        assertEquals(999, settled.since("p", 1_000));
        nanos.addAndGet(SettledSeconds.SETTLE.toNanos());
        settled.answered("p", 1_005, settled.now());
        assertEquals(1_004, settled.since("p", 1_005), "a newer second is not settled yet");
    }
}
