package io.hpcscale.scaler.run;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** When each cloud account may be called again: a 429 from one pool holds back every pool of that account. */
public final class CloudThrottles {
    private final Map<String, Instant> until = new ConcurrentHashMap<>();

    /** When the account may be called again, or null if it may be now. */
    Instant until(String account, Instant now) {
        Instant deadline = until.get(account);
        return deadline != null && now.isBefore(deadline) ? deadline : null;
    }

    /** Moves the account's deadline to {@code deadline} unless it is already later. */
    void throttle(String account, Instant deadline) {
        until.merge(account, deadline, (a, b) -> a.isAfter(b) ? a : b);
    }
}
