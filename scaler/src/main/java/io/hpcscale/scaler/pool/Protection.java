package io.hpcscale.scaler.pool;

import java.time.Duration;

/**
 * When a pool whose boots keep failing stops starting instances ({@code protectAfter} failed boots in a row), and
 * when it tries one instance again on its own ({@code protectProbeAfter}), half-open like a circuit breaker.
 */
public record Protection(int after, Duration probeAfter) {
    public Protection {
        if (after < 1) {
            throw new IllegalArgumentException("protectAfter must be at least 1");
        }
    }
}
