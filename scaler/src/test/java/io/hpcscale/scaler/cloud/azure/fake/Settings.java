package io.hpcscale.scaler.cloud.azure.fake;

import java.time.Clock;
import java.time.Duration;

/**
 * The knobs a test turns: how time passes in the fake and how fast it lets the SDK go.
 *
 * <p>Fields are volatile because tests change them while server threads read them.
 */
public final class Settings {
    private volatile Clock clock = Clock.systemUTC();
    private volatile Duration bootDelay = Duration.ZERO;
    private volatile Duration stopDelay = Duration.ZERO;
    private volatile Duration operationDuration = Duration.ZERO;
    private volatile int pageSize = 50;
    private volatile int retryAfterSeconds = 1;

    public Clock clock() {
        return clock;
    }

    /** Real time by default; a {@link MutableClock} lets a test jump over boot delays. */
    public Settings clock(Clock clock) {
        this.clock = clock;
        return this;
    }

    public Duration bootDelay() {
        return bootDelay;
    }

    /** How long a started or newly created instance stays {@code starting} before it is {@code running}. */
    public Settings bootDelay(Duration bootDelay) {
        this.bootDelay = bootDelay;
        return this;
    }

    public Duration stopDelay() {
        return stopDelay;
    }

    /** How long {@code deallocating} and {@code stopping} last. */
    public Settings stopDelay(Duration stopDelay) {
        this.stopDelay = stopDelay;
        return this;
    }

    public Duration operationDuration() {
        return operationDuration;
    }

    /** How long every long-running operation stays InProgress unless a fault says otherwise. */
    public Settings operationDuration(Duration operationDuration) {
        this.operationDuration = operationDuration;
        return this;
    }

    public int pageSize() {
        return pageSize;
    }

    public Settings pageSize(int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be at least 1");
        }
        this.pageSize = pageSize;
        return this;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /**
     * The Retry-After sent with long-running operations. The SDK reads 0 as "use my default interval" (30 s
     * unless a DelayProvider shortens it), so 1 is the fastest value that works on its own.
     */
    public Settings retryAfterSeconds(int seconds) {
        this.retryAfterSeconds = seconds;
        return this;
    }
}
