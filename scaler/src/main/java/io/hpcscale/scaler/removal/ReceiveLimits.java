package io.hpcscale.scaler.removal;

import java.time.Duration;

/** The service's bounds on one receive, checked by every queue alike, so that the fake refuses what Azure would. */
public final class ReceiveLimits {
    public static final Duration LONGEST_VISIBILITY = Duration.ofDays(7);

    private ReceiveLimits() {
    }

    public static void check(int max, Duration visibilityTimeout) {
        if (max < 1 || max > RemovalQueue.MAX_RECEIVE) {
            throw new IllegalArgumentException("a receive takes 1 to " + RemovalQueue.MAX_RECEIVE + " messages, not "
                    + max);
        }
        if (visibilityTimeout.toNanos() % 1_000_000_000L != 0 || visibilityTimeout.compareTo(Duration.ofSeconds(1)) < 0
                || visibilityTimeout.compareTo(LONGEST_VISIBILITY) > 0) {
            throw new IllegalArgumentException("a visibility timeout is whole seconds from 1s to 7d, not "
                    + visibilityTimeout);
        }
    }
}
