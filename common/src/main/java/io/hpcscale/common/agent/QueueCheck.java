package io.hpcscale.common.agent;

import io.hpcscale.common.config.Spelling;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Pools whose queue (or partition) the scheduler does not have: their jobs would never be seen, and the pool never
 * grow, without a word. Said at every agent start, with the names the scheduler has and the nearest of them.
 */
public final class QueueCheck {
    private QueueCheck() {
    }

    /** @param word "queue" or "partition", as the scheduler and the settings call it */
    public static List<String> problems(PoolMap pools, Set<String> existing, String word) {
        List<String> problems = new ArrayList<>();
        TreeSet<String> sorted = new TreeSet<>(existing);
        pools.queueOfPool().forEach((pool, queue) -> {
            if (!existing.contains(queue)) {
                problems.add("pool " + pool + " serves " + word + " '" + queue + "' (pool." + pool + "." + word
                        + "), which the scheduler does not have"
                        + Spelling.nearest(queue, sorted, 3).map(n -> ": did you mean " + n + "?").orElse(".")
                        + " Its " + word + "s: " + (sorted.isEmpty() ? "none" : String.join(", ", sorted)) + ".");
            }
        });
        return problems;
    }
}
