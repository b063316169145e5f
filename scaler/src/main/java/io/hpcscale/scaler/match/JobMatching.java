package io.hpcscale.scaler.match;

import io.hpcscale.common.model.JobDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The constraint each job must meet: its queue's ({@code pool.<name>.constraint} of the pool whose queue the agent
 * maps) and its own, as the agent wrote it. Jobs share few distinct constraints, so each text is read once; a job
 * whose constraint cannot be read matches no pool, and says why.
 */
public final class JobMatching {
    /** Distinct job constraints kept read; beyond, the cache starts again rather than grow for ever. */
    private static final int MAX_KEPT = 10_000;

    private final Map<String, Constraint> queueConstraints;
    private final ConstraintParser parser = new ConstraintParser();
    private final Map<String, Constraint> read = new ConcurrentHashMap<>();

    /** @param queueConstraints by the name of the pool whose queue they stand on */
    public JobMatching(Map<String, Constraint> queueConstraints) {
        this.queueConstraints = Map.copyOf(queueConstraints);
    }

    /** No queue constraints: only what the jobs ask. */
    public static JobMatching jobsOnly() {
        return new JobMatching(Map.of());
    }

    /** Whether the queue whose jobs this pool's agent maps asks anything of them. */
    boolean queueAsks(String pool) {
        return queueConstraints.getOrDefault(pool, Constraint.NONE) != Constraint.NONE;
    }

    /** Everything the job must meet, its queue's first. */
    public Constraint constraintOf(JobDocument job) {
        Constraint queue = queueConstraints.getOrDefault(job.poolName(), Constraint.NONE);
        if (job.constraints() == null) {
            return queue;
        }
        Constraint own = ownConstraint(job.constraints());
        if (queue == Constraint.NONE) {
            return own;
        }
        List<Constraint> both = new ArrayList<>(2);
        both.add(queue);
        both.add(own);
        return new Constraint.AllOf(both);
    }

    /** How the pool with this node judges jobs during one plan: each distinct constraint evaluated once. */
    public PoolFit forPool(NodeProperties node) {
        return new PoolFit(this, node);
    }

    private Constraint ownConstraint(String text) {
        Constraint known = read.get(text);
        if (known != null) {
            return known;
        }
        if (read.size() >= MAX_KEPT) {
            read.clear();
        }
        Constraint constraint;
        try {
            constraint = parser.parse(text);
        } catch (ConstraintException e) {
            constraint = new Constraint.Never("the job's constraint cannot be read: " + e.getMessage());
        }
        read.put(text, constraint);
        return constraint;
    }
}
