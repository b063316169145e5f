package io.hpcscale.cloud.azure;

import io.hpcscale.cloud.azure.fake.MutableClock;
import java.time.Clock;
import java.time.Duration;

/**
 * The provider's time in a test: a settable clock, and pauses that move it instead of waiting, so that listing
 * intervals, budgets and 15-second polls pass in no real time. Give the fake the same clock when its operations
 * and buckets should keep the same time.
 */
public final class TestPace implements ArmPace {
    private final MutableClock clock;

    public TestPace(MutableClock clock) {
        this.clock = clock;
    }

    public static TestPace startingNow() {
        return new TestPace(MutableClock.startingNow());
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public void sleep(Duration duration) {
        clock.advance(duration);
    }

    public MutableClock mutableClock() {
        return clock;
    }

    /** Past the default {@code azure.minListInterval}: the next list call lists afresh. */
    public void pastListInterval() {
        clock.advance(Duration.ofSeconds(61));
    }
}
