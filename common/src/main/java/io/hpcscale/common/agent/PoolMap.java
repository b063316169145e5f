package io.hpcscale.common.agent;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.PoolGroups;
import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.common.config.Settings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which pool a job or a node belongs to. A pool serves one queue (PBS) or partition (Slurm), by default the one
 * with the pool's own name; nodes belong to the pool of the first queue they serve, else to the first pool whose
 * {@code nodePattern} matches their name. A fallback pool serves its primary's queue: the primary's partition holds
 * the queue's jobs and nodes, and the scaler tells which nodes are the fallback's instances.
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
    private final List<String> fallbacks;
    private final List<String> pools;
    private final MultiQueueRule multiQueueRule;

    public PoolMap(Map<String, String> poolByQueue, Map<String, Pattern> nodePatterns) {
        this(poolByQueue, nodePatterns, List.of(), MultiQueueRule.FIRST);
    }

    /**
     * @param fallbacks pools that serve another pool's queue ({@link PoolGroups}): no job or node maps to them, but
     *                  the agent serves them, carrying out their drain requests and naming them in its heartbeat
     */
    public PoolMap(Map<String, String> poolByQueue, Map<String, Pattern> nodePatterns, List<String> fallbacks,
            MultiQueueRule rule) {
        this.poolByQueue = Map.copyOf(poolByQueue);
        this.nodePatterns = new LinkedHashMap<>(nodePatterns);
        this.fallbacks = List.copyOf(fallbacks);
        TreeSet<String> names = new TreeSet<>(poolByQueue.values());
        names.addAll(nodePatterns.keySet());
        names.addAll(fallbacks);
        this.pools = List.copyOf(names);
        this.multiQueueRule = rule;
    }

    public PoolMap withMultiQueueRule(MultiQueueRule rule) {
        return new PoolMap(poolByQueue, nodePatterns, fallbacks, rule);
    }

    /**
     * Builds the map from {@code pool.<name>.<queueProperty>} ({@code queue} for PBS, {@code partition} for Slurm)
     * and {@code pool.<name>.nodePattern}.
     *
     * @throws ConfigException when no pool is configured, two pools claim the same queue, or a fallback pool claims
     *                         one of its own
     */
    public static PoolMap fromSettings(Settings settings, String queueProperty) {
        if (settings.poolNames().isEmpty()) {
            throw new ConfigException("no pools are configured: add at least one pool.<name>." + queueProperty
                    + " (or any other pool.<name>.* setting) to say which " + queueProperty + " hpcscale scales");
        }
        PoolGroups groups = PoolGroups.fromSettings(settings);
        Map<String, String> poolByQueue = new LinkedHashMap<>();
        Map<String, Pattern> patterns = new LinkedHashMap<>();
        List<String> fallbacks = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String name : settings.poolNames()) {
            PoolSettings pool = settings.pool(name);
            if (groups.isFallback(name)) {
                fallbacks.add(name);
                for (String own : List.of(queueProperty, "nodePattern")) {
                    if (pool.isSet(own)) {
                        problems.add(pool.key(own) + " is set, but pool " + name + " is a fallback of pool "
                                + groups.primaryOf(name).orElseThrow() + ": it serves that pool's " + queueProperty
                                + " and its nodes are reported there; remove " + pool.key(own));
                    }
                }
                continue;
            }
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
        return new PoolMap(poolByQueue, patterns, fallbacks, MultiQueueRule.FIRST);
    }

    /** The queue (or partition) each pool that has one serves, by pool; fallback pools have none. */
    public Map<String, String> queueOfPool() {
        Map<String, String> queues = new TreeMap<>();
        poolByQueue.forEach((queue, pool) -> queues.put(pool, queue));
        return queues;
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
