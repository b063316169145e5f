package io.hpcscale.common.time;

import java.time.Clock;

/**
 * Elapsed time on this machine, which only moves forward: for timing an interval, never for comparing with another
 * machine's clock. Wall clocks of two hosts may disagree by minutes and jump when corrected; a lease timed with them
 * can give two scalers the right to act at once.
 */
@FunctionalInterface
public interface Monotonic {

    /** Nanoseconds since an arbitrary origin fixed for this process. */
    long nanos();

    static Monotonic system() {
        return System::nanoTime;
    }

    /** Elapsed time as a simulated clock counts it: for the simulator and tests, whose time is not the machine's. */
    static Monotonic following(Clock clock) {
        return () -> clock.millis() * 1_000_000L;
    }
}
