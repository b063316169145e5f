package io.hpcscale.scaler.match;

import io.hpcscale.common.model.JobDocument;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Whether one pool's node satisfies each job's constraints, for one plan: jobs of the same queue with the same
 * constraint get the same judgement, made once; jobs asking nothing of a queue that asks nothing need none.
 */
public final class PoolFit {
    /** A job's constraint and whether the pool's node meets it. */
    private record Judgement(Constraint constraint, Verdict verdict) {
    }

    private static final Judgement NOTHING_ASKED = new Judgement(Constraint.NONE, Verdict.SUCCESS);

    private final JobMatching matching;
    private final NodeProperties node;
    private final Map<Key, Judgement> judged = new HashMap<>();
    /** The last queue asked about and whether it asks anything: a plan's jobs are mostly of one queue. */
    private String lastQueuePool;
    private boolean lastQueueAsks;

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
        return judge(job).verdict();
    }

    public Constraint constraintOf(JobDocument job) {
        return judge(job).constraint();
    }

    private boolean queueAsks(String pool) {
        if (!pool.equals(lastQueuePool)) {
            lastQueuePool = pool;
            lastQueueAsks = matching.queueAsks(pool);
        }
        return lastQueueAsks;
    }

    private Judgement judge(JobDocument job) {
        if (job.constraints() == null && !queueAsks(job.poolName())) {
            return NOTHING_ASKED;
        }
        return judged.computeIfAbsent(new Key(job.poolName(), job.constraints()), key -> {
            Constraint constraint = matching.constraintOf(job);
            return new Judgement(constraint, constraint.test(node));
        });
    }
}
