package io.hpcscale.scaler.documents;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * How a pool's boots have gone lately: the failed boots since the last that succeeded, why the last few failed, and
 * since when the pool is protected (it starts no instance but a probe) after too many in a row. Unlike the count that
 * puts a pool in backoff, a backoff does not reset it: a pool whose image is broken keeps failing after each backoff,
 * which is what protection stops.
 *
 * @param failedInARow     boots failed since the last one that succeeded
 * @param recentFailures   why the last {@value #KEPT} failed, oldest first, each with when
 * @param protectedSince   since when the pool is protected, or null: a probe is due {@code protectProbeAfter} later
 */
public record BootHealth(int failedInARow, List<String> recentFailures, Instant protectedSince) {
    public static final BootHealth NONE = new BootHealth(0, List.of(), null);
    static final int KEPT = 5;

    public BootHealth {
        recentFailures = List.copyOf(recentFailures);
    }

    public boolean protectedNow() {
        return protectedSince != null;
    }

    /**
     * One more failed boot. Enough in a row protect the pool; a failed probe (or any failure while protected) starts
     * the wait for the next probe again.
     */
    public BootHealth failed(Instant at, String why, int protectAfter) {
        List<String> recent = new ArrayList<>(recentFailures);
        recent.add(at + ": " + why);
        if (recent.size() > KEPT) {
            recent = recent.subList(recent.size() - KEPT, recent.size());
        }
        int failed = failedInARow + 1;
        return new BootHealth(failed, recent, protectedNow() || failed >= protectAfter ? at : null);
    }
}
