package io.hpcscale.scaler.plan;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What the scaler remembers about a pool between cycles.
 *
 * @param bootStarts              instances started (or first seen booting) and when, until their node reports in
 * @param consecutiveBootFailures failed boots since the last boot that succeeded
 * @param backoffUntil            the pool starts nothing before this, or null
 * @param backoffReason           why it is in backoff
 */
public record PoolHistory(
        Map<String, Instant> bootStarts,
        int consecutiveBootFailures,
        Instant backoffUntil,
        String backoffReason) {

    public PoolHistory {
        bootStarts = Map.copyOf(bootStarts);
    }

    public static PoolHistory empty() {
        return new PoolHistory(Map.of(), 0, null, null);
    }

    public boolean inBackoff(Instant now) {
        return backoffUntil != null && now.isBefore(backoffUntil);
    }

    public PoolHistory booting(String instanceId, Instant since) {
        Map<String, Instant> boots = new HashMap<>(bootStarts);
        boots.put(instanceId, since);
        return new PoolHistory(boots, consecutiveBootFailures, backoffUntil, backoffReason);
    }

    public PoolHistory booted(String instanceId) {
        Map<String, Instant> boots = new HashMap<>(bootStarts);
        boots.remove(instanceId);
        return new PoolHistory(boots, 0, backoffUntil, backoffReason);
    }

    public PoolHistory bootFailed(String instanceId) {
        Map<String, Instant> boots = new HashMap<>(bootStarts);
        boots.remove(instanceId);
        return new PoolHistory(boots, consecutiveBootFailures + 1, backoffUntil, backoffReason);
    }

    public PoolHistory backoff(Instant until, String reason) {
        return new PoolHistory(bootStarts, 0, until, reason);
    }

    /** Drops boots of instances that no longer exist. */
    public PoolHistory onlyInstances(Set<String> instanceIds) {
        Map<String, Instant> boots = new HashMap<>(bootStarts);
        boots.keySet().retainAll(instanceIds);
        return new PoolHistory(boots, consecutiveBootFailures, backoffUntil, backoffReason);
    }
}
