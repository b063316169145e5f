package io.hpcscale.common.store;

import io.hpcscale.common.time.Monotonic;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a read of a pool's changes starts. Cosmos DB stamps each write with the whole second it committed in
 * ({@code _ts}); a write stamped with the same second as the newest one a read saw may commit just after that read,
 * so the next read goes back over that second (and one before, for the clocks of a partition's replicas). But a
 * pool that then stays quiet would be read back over the same second at every cycle: after the agent's first cycle
 * that second held 2,000 documents, about 1,000 RU a cycle for nothing. Once this store has known a second as a
 * pool's newest for {@link #SETTLE} on its own clock, every write stamped with it has landed (the server had reached
 * that second when it first answered with it), and reads start at the second after.
 */
final class SettledSeconds {
    static final Duration SETTLE = Duration.ofSeconds(2);
    private static final long OVERLAP_SECONDS = 1;

    private record Seen(long second, long atNanos) {
    }

    private final Monotonic monotonic;
    private final Map<String, Seen> newest = new ConcurrentHashMap<>();

    SettledSeconds(Monotonic monotonic) {
        this.monotonic = monotonic;
    }

    /** The first {@code _ts} to read for the pool, whose last read ended at {@code position} (its newest second). */
    long since(String pool, long position) {
        Seen seen = newest.get(pool);
        boolean settled = seen != null && seen.second() == position
                && monotonic.nanos() - seen.atNanos() >= SETTLE.toNanos();
        return settled ? position + 1 : position - OVERLAP_SECONDS;
    }

    /** A read of the pool answered with {@code position} as its newest second. */
    void answered(String pool, long position) {
        Seen seen = newest.get(pool);
        if (seen == null || seen.second() != position) {
            newest.put(pool, new Seen(position, monotonic.nanos()));
        }
    }
}
