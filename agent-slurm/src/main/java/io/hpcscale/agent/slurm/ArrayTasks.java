package io.hpcscale.agent.slurm;

import java.util.ArrayList;
import java.util.List;

/**
 * The pending tasks of a job array as squeue --json prints them unexpanded: {@code 4-6%4}, {@code 1-9:2,15}. The
 * {@code %N} throttle limits how many run at once, not how many wait, so it is ignored.
 */
final class ArrayTasks {
    private ArrayTasks() {
    }

    /** At most {@code cap} task ids; a larger array cannot be waited on by more nodes than any pool has anyway. */
    static List<Long> expand(String spec, int cap) {
        List<Long> tasks = new ArrayList<>();
        String withoutThrottle = spec.contains("%") ? spec.substring(0, spec.indexOf('%')) : spec;
        for (String part : withoutThrottle.split(",")) {
            String range = part.strip();
            if (range.isEmpty()) {
                continue;
            }
            long step = 1;
            int colon = range.indexOf(':');
            if (colon >= 0) {
                step = Long.parseLong(range.substring(colon + 1));
                range = range.substring(0, colon);
            }
            String[] bounds = range.split("-", 2);
            long low = Long.parseLong(bounds[0]);
            long high = bounds.length == 2 ? Long.parseLong(bounds[1]) : low;
            if (step < 1 || high < low) {
                throw new IllegalArgumentException("array tasks '" + spec + "' have the range '" + part + "'");
            }
            for (long task = low; task <= high && tasks.size() < cap; task += step) {
                tasks.add(task);
            }
        }
        return tasks;
    }
}
