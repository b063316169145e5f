package io.hpcscale.scaler.match;

import io.hpcscale.common.model.JobDocument;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Whether one pool's node satisfies each job's constraints, for one plan: jobs of the same queue with the same
 * constraint get the same verdict, computed once.
 */
public final class PoolFit {
    private final JobMatching matching;
    private final NodeProperties node;
    private final Map<Key, Verdict> verdicts = new HashMap<>();

    private record Key(String queuePool, String constraints) {
    }

    PoolFit(JobMatching matching, NodeProperties node) {
        this.matching = matching;
        this.node = Objects.requireNonNull(node, "node");
    }

    public NodeProperties node() {
        return node;
    }

    public Verdict verdict(JobDocument job) {
        return verdicts.computeIfAbsent(new Key(job.poolName(), job.constraints()),
                key -> matching.constraintOf(job).test(node));
    }

    public Constraint constraintOf(JobDocument job) {
        return matching.constraintOf(job);
    }
}
