package io.hpcscale.common.agent;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.common.config.Settings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which pool a job or a node belongs to. A pool serves one queue (PBS) or partition (Slurm), by default the one
 * with the pool's own name; nodes belong to the pool of the first queue they serve, else to the first pool whose
 * {@code nodePattern} matches their name.
 */
public final class PoolMap {

    /** Which pools a job that may run in several queues (Slurm: {@code -p debug,batch}) counts for. */
    public enum MultiQueueRule {
        /** The first of its queues that a pool serves. */
        FIRST,
        /** Every pool serving one of its queues: faster starts, at the price of starting nodes it will not use. */
        EVERY
    }

    private final Map<String, String> poolByQueue;
    private final Map<String, Pattern> nodePatterns;
    private final List<String> pools;
    private final MultiQueueRule multiQueueRule;

    public PoolMap(Map<String, String> poolByQueue, Map<String, Pattern> nodePatterns) {
        this(poolByQueue, nodePatterns, MultiQueueRule.FIRST);
    }

    public PoolMap(Map<String, String> poolByQueue, Map<String, Pattern> nodePatterns, MultiQueueRule rule) {
        this.poolByQueue = Map.copyOf(poolByQueue);
        this.nodePatterns = new LinkedHashMap<>(nodePatterns);
        TreeSet<String> names = new TreeSet<>(poolByQueue.values());
        names.addAll(nodePatterns.keySet());
        this.pools = List.copyOf(names);
        this.multiQueueRule = rule;
    }

    public PoolMap withMultiQueueRule(MultiQueueRule rule) {
        return new PoolMap(poolByQueue, nodePatterns, rule);
    }

    /**
     * Builds the map from {@code pool.<name>.<queueProperty>} ({@code queue} for PBS, {@code partition} for Slurm)
     * and {@code pool.<name>.nodePattern}.
     *
     * @throws ConfigException when no pool is configured, or two pools claim the same queue
     */
    public static PoolMap fromSettings(Settings settings, String queueProperty) {
        if (settings.poolNames().isEmpty()) {
            throw new ConfigException("no pools are configured: add at least one pool.<name>." + queueProperty
                    + " (or any other pool.<name>.* setting) to say which " + queueProperty + " hpcscale scales");
        }
        Map<String, String> poolByQueue = new LinkedHashMap<>();
        Map<String, Pattern> patterns = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (String name : settings.poolNames()) {
            PoolSettings pool = settings.pool(name);
            String queue = pool.string(queueProperty);
            String claimedBy = poolByQueue.putIfAbsent(queue, name);
            if (claimedBy != null) {
                problems.add(pool.key(queueProperty) + " names " + queueProperty + " '" + queue + "', which pool "
                        + claimedBy + " already serves (" + settings.pool(claimedBy).key(queueProperty) + "): each "
                        + queueProperty + " maps to one pool");
            }
            pool.optionalRegex("nodePattern").ifPresent(p -> patterns.put(name, p));
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new PoolMap(poolByQueue, patterns);
    }

    /** Pool names in order. */
    public List<String> pools() {
        return pools;
    }

    public boolean serves(String pool) {
        return pools.contains(pool);
    }

    /** The pool of the first of these queues that maps to one. */
    public Optional<String> poolForQueues(List<String> queues) {
        for (String queue : queues) {
            String pool = poolByQueue.get(queue);
            if (pool != null) {
                return Optional.of(pool);
            }
        }
        return Optional.empty();
    }

    /** The pools a job counts for, by the multi-queue rule; empty when none serves any of its queues. */
    public List<String> poolsForJob(List<String> queues) {
        if (multiQueueRule == MultiQueueRule.FIRST) {
            return poolForQueues(queues).map(List::of).orElse(List.of());
        }
        List<String> result = new ArrayList<>();
        for (String queue : queues) {
            String pool = poolByQueue.get(queue);
            if (pool != null && !result.contains(pool)) {
                result.add(pool);
            }
        }
        return result;
    }

    public Optional<String> queueOf(String pool, List<String> queues) {
        return queues.stream().filter(q -> pool.equals(poolByQueue.get(q))).findFirst();
    }

    public Optional<String> poolForNode(String nodeName, List<String> queues) {
        Optional<String> byQueue = poolForQueues(queues);
        if (byQueue.isPresent()) {
            return byQueue;
        }
        return nodePatterns.entrySet().stream()
                .filter(e -> e.getValue().matcher(nodeName).matches())
                .map(Map.Entry::getKey)
                .findFirst();
    }
}
