package io.hpcscale.common.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pools that serve one queue together ({@code pool.<name>.fallbacks}): a primary, whose queue or partition the agent
 * maps and whose partition holds the queue's jobs and nodes, then its fallbacks in order, each a pool with its own
 * scale set and VM size. Every other pool is a group of one. Agent and scaler read the same settings, so they agree.
 */
public final class PoolGroups {
    private final Map<String, List<String>> fallbacksByPrimary;
    private final Map<String, String> primaryOfFallback;

    private PoolGroups(Map<String, List<String>> fallbacksByPrimary, Map<String, String> primaryOfFallback) {
        this.fallbacksByPrimary = fallbacksByPrimary;
        this.primaryOfFallback = primaryOfFallback;
    }

    /** @throws ConfigException naming every fallback that is unknown, claimed twice, or has fallbacks itself */
    public static PoolGroups fromSettings(Settings settings) {
        Map<String, List<String>> byPrimary = new LinkedHashMap<>();
        Map<String, String> primaryOf = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (String name : settings.poolNames()) {
            PoolSettings pool = settings.pool(name);
            Optional<String> value = pool.optionalString("fallbacks");
            if (value.isEmpty()) {
                continue;
            }
            List<String> fallbacks = new ArrayList<>();
            for (String part : value.get().split(",")) {
                String fallback = part.strip();
                if (fallback.isEmpty()) {
                    continue;
                }
                if (fallback.equals(name)) {
                    problems.add(pool.key("fallbacks") + " names the pool itself");
                } else if (!settings.poolNames().contains(fallback)) {
                    problems.add(pool.key("fallbacks") + " names pool '" + fallback + "', which is not configured: "
                            + "add its pool." + fallback + ".* settings or remove it");
                } else if (primaryOf.containsKey(fallback)) {
                    problems.add(pool.key("fallbacks") + " names pool '" + fallback + "', which is already a fallback "
                            + "of pool " + primaryOf.get(fallback) + ": a pool serves one queue");
                } else {
                    primaryOf.put(fallback, name);
                    fallbacks.add(fallback);
                }
            }
            byPrimary.put(name, List.copyOf(fallbacks));
        }
        for (Map.Entry<String, String> entry : primaryOf.entrySet()) {
            if (byPrimary.containsKey(entry.getKey()) && !byPrimary.get(entry.getKey()).isEmpty()) {
                problems.add("pool." + entry.getKey() + ".fallbacks is set, but pool " + entry.getKey() + " is itself "
                        + "a fallback of pool " + entry.getValue() + ": list every fallback, in order, in pool."
                        + entry.getValue() + ".fallbacks");
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new PoolGroups(byPrimary, primaryOf);
    }

    /** Whether the pool serves another pool's queue rather than one of its own. */
    public boolean isFallback(String pool) {
        return primaryOfFallback.containsKey(pool);
    }

    /** The pool whose queue a fallback serves. */
    public Optional<String> primaryOf(String pool) {
        return Optional.ofNullable(primaryOfFallback.get(pool));
    }

    /** The pool followed by its fallbacks in order; a pool without fallbacks alone. */
    public List<String> group(String primary) {
        List<String> group = new ArrayList<>();
        group.add(primary);
        group.addAll(fallbacksByPrimary.getOrDefault(primary, List.of()));
        return group;
    }
}
