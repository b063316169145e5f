package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.JobDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a {@link CustomDecision} is shown of one pool in one cycle: a copy, so nothing it does changes the plan
 * except through its requests.
 *
 * @param active        instances that count against the max: running and booting, drains withdrawn this cycle
 * @param startsPlanned instances the decisions before this one start or create this cycle
 * @param queuedJobs    the pool's queued jobs (and held ones, with {@code countHeldJobs})
 */
public record PoolFacts(String pool, Instant now, int min, int max, Duration idleTimeout, int active,
        int startsPlanned, List<Node> nodes, List<JobDocument> queuedJobs) {

    public PoolFacts {
        nodes = List.copyOf(nodes);
        queuedJobs = List.copyOf(queuedJobs);
    }

    /**
     * One instance of the pool.
     *
     * @param idleFor       how long its node has run no job, when it is in service and idle
     * @param draining      asked to drain, by hpcscale or this cycle's decisions
     * @param neededByQueue queued jobs will be placed on it
     */
    public record Node(String name, String instance, State state, boolean inService, Optional<Duration> idleFor,
            boolean draining, boolean neededByQueue) {
    }

    public enum State { RUNNING, BOOTING, STOPPED }
}
