package io.hpcscale.simulator;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A job of the simulated scheduler: it needs {@code nodes} whole nodes for {@code runtime}, and says it needs them
 * for {@code requestedTime} (what backfilling plans with). A job that gives {@code cpus} asks for that many CPUs
 * instead, on nodes of its own of any one size its queue has: as many as that size needs ({@code nodes} is then what
 * it needs of its queue's first size).
 */
public record SimJob(String id, String queue, Instant submitAt, int nodes, Duration runtime, Duration requestedTime,
        boolean held, int cpus) {
    public SimJob {
        Objects.requireNonNull(id, "id");
        if (nodes < 1) {
            throw new IllegalArgumentException("job " + id + " needs at least one node");
        }
        if (cpus < 0) {
            throw new IllegalArgumentException("job " + id + " asks for a negative number of CPUs");
        }
        if (requestedTime.compareTo(runtime) < 0) {
            requestedTime = runtime;
        }
    }

    public SimJob(String id, String queue, Instant submitAt, int nodes, Duration runtime, Duration requestedTime,
            boolean held) {
        this(id, queue, submitAt, nodes, runtime, requestedTime, held, 0);
    }

    /** Whole nodes of {@code nodeCpus} CPUs it takes. */
    public int nodesOf(int nodeCpus) {
        return cpus > 0 ? (cpus + nodeCpus - 1) / nodeCpus : nodes;
    }
}
