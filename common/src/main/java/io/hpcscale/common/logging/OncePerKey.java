package io.hpcscale.common.logging;

import java.util.HashSet;
import java.util.Set;

/**
 * Remembers which conditions were already reported, so a problem that persists for hours (a malformed job, an
 * unmapped queue) is logged once at warning level rather than every cycle. Keys that stop occurring are forgotten,
 * so a problem that comes back is reported again.
 */
public final class OncePerKey {
    private final Set<String> reported = new HashSet<>();
    private final Set<String> seenThisRound = new HashSet<>();

    /** True the first time a key is seen since it was last forgotten. */
    public synchronized boolean first(String key) {
        seenThisRound.add(key);
        return reported.add(key);
    }

    /** Forgets every key not seen since the previous call. */
    public synchronized void endRound() {
        reported.retainAll(seenThisRound);
        seenThisRound.clear();
    }
}
