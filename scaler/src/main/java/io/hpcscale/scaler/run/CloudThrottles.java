package io.hpcscale.scaler.run;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** When each cloud account may be called again: a 429 from one pool holds back every pool of that account. */
public final class CloudThrottles {
    /** Until when, and what the cloud said: every pool held back shows it. */
    record Throttle(Instant until, String reason) {
    }

    private final Map<String, Throttle> throttles = new ConcurrentHashMap<>();

    /** The account's throttle, or null if it may be called now. */
    Throttle of(String account, Instant now) {
        Throttle throttle = throttles.get(account);
        return throttle != null && now.isBefore(throttle.until()) ? throttle : null;
    }

    /** When the account may be called again, or null if it may be now. */
    Instant until(String account, Instant now) {
        Throttle throttle = of(account, now);
        return throttle == null ? null : throttle.until();
    }

    /** Moves the account's deadline to {@code deadline} unless it is already later. */
    void throttle(String account, Instant deadline, String reason) {
        throttles.merge(account, new Throttle(deadline, reason), (a, b) -> a.until().isAfter(b.until()) ? a : b);
    }
}
