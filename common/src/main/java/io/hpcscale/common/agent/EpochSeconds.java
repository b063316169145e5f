package io.hpcscale.common.agent;

import java.time.Instant;

/** Times that schedulers print as seconds since 1970. */
public final class EpochSeconds {
    /** The last second of the year 9999: a later time is a garbled value, and no reader of the documents takes it. */
    private static final long LAST = 253_402_300_799L;

    private EpochSeconds() {
    }

    /**
     * The instant, or null for 0 or less (schedulers print 0 for "never") and for a time past the year 9999: a
     * time is never worth losing a job or a node over.
     */
    public static Instant toInstant(long seconds) {
        return seconds > 0 && seconds <= LAST ? Instant.ofEpochSecond(seconds) : null;
    }
}
