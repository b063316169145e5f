package io.hpcscale.common.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that only moves when told: drives the demo, the simulator and tests. */
public final class SettableClock extends Clock {
    private Instant now;

    public SettableClock(Instant now) {
        this.now = now;
    }

    public synchronized void advance(Duration duration) {
        now = now.plus(duration);
    }

    /** Moves to the instant; a clock never moves back. */
    public synchronized void set(Instant instant) {
        if (instant.isBefore(now)) {
            throw new IllegalArgumentException("the clock is at " + now + " and cannot go back to " + instant);
        }
        now = instant;
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
