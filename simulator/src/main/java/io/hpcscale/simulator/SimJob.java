package io.hpcscale.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A job of the simulated scheduler: it needs {@code nodes} whole nodes for {@code runtime}, and says it needs them
 * for {@code requestedTime} (what backfilling plans with).
 */
public record SimJob(String id, String queue, Instant submitAt, int nodes, Duration runtime, Duration requestedTime,
        boolean held) {
    public SimJob {
        Objects.requireNonNull(id, "id");
        if (nodes < 1) {
            throw new IllegalArgumentException("job " + id + " needs at least one node");
        }
        if (requestedTime.compareTo(runtime) < 0) {
            requestedTime = runtime;
        }
    }
}
