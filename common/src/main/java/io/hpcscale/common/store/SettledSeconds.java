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
 * that second held 2,000 documents, about 1,000 RU a cycle for nothing.
 *
 * <p>So a second is settled once a read that <em>began</em> at least {@link #SETTLE} after this store first saw it as
 * the pool's newest has gone back over it and found it still the newest: every write stamped with it had committed
 * before that read began (the server had reached that second when it first answered with it), so that read saw them
 * all. Later reads start at the second after. That costs one more read of the second, not one per cycle.
 */
final class SettledSeconds {
    static final Duration SETTLE = Duration.ofSeconds(2);
    static final long OVERLAP_SECONDS = 1;

    /** A pool's newest second, when this store first answered with it, and whether a later read settled it. */
    private record Seen(long second, long firstAtNanos, boolean settled) {
    }

    private final Monotonic monotonic;
    private final Map<String, Seen> newest = new ConcurrentHashMap<>();

    SettledSeconds(Monotonic monotonic) {
        this.monotonic = monotonic;
    }

    /** Now, on this store's clock: taken when a read begins, and given back to {@link #answered}. */
    long now() {
        return monotonic.nanos();
    }

    /** The first {@code _ts} to read for the pool, whose last read ended at {@code position} (its newest second). */
    long since(String pool, long position) {
        Seen seen = newest.get(pool);
        return seen != null && seen.second() == position && seen.settled() ? position + 1
                : position - OVERLAP_SECONDS;
    }

    /**
     * A read of the pool, begun at {@code beganNanos} from {@link #since}, answered with {@code position} as its
     * newest second.
     */
    void answered(String pool, long position, long beganNanos) {
        Seen seen = newest.get(pool);
        if (seen == null || seen.second() != position) {
            newest.put(pool, new Seen(position, beganNanos, false));
        } else if (!seen.settled() && beganNanos - seen.firstAtNanos() >= SETTLE.toNanos()) {
            newest.put(pool, new Seen(position, seen.firstAtNanos(), true));
        }
    }
}
