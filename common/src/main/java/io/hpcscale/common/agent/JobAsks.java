package io.hpcscale.common.agent;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a job asks for beyond its chunks, as its scheduler reports it.
 *
 * @param constraints what it asks of its nodes, in the constraint language (a JSON array of constraint objects),
 *                    or null when nothing
 * @param shared      counted resources the whole job takes while it runs (licences: PBS {@code -l lic=2}, Slurm
 *                    {@code --licenses=lic:2}), by name
 * @param owner       the user who submitted it, for per-user queue limits, or null
 */
public record JobAsks(String constraints, Map<String, Long> shared, String owner) {
    public static final JobAsks NONE = new JobAsks(null, Map.of(), null);

    public JobAsks {
        shared = Collections.unmodifiableMap(new TreeMap<>(shared));
    }
}
