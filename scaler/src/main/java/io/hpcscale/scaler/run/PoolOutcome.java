package io.hpcscale.scaler.run;

import io.hpcscale.common.secrets.Redactor;
import io.hpcscale.scaler.plan.Plan;
import java.util.List;

/**
 * One pool's part of a cycle.
 *
 * @param plan    what was planned, or null when the pool could not be planned
 * @param problem why the pool could not be listed, planned or recorded, or null
 * @param census  the pool as the plan saw it, or null when it was not planned
 */
public record PoolOutcome(String pool, Plan plan, List<ScalerEvent> events, String problem, PoolCensus census) {
    public PoolOutcome {
        events = List.copyOf(events);
        problem = Redactor.text(problem);
    }

    /** A pool that was not planned. */
    public PoolOutcome(String pool, Plan plan, List<ScalerEvent> events, String problem) {
        this(pool, plan, events, problem, null);
    }

    /** Whether anything went wrong: the pool could not be listed or planned, or an action failed. */
    public boolean failed() {
        return problem != null || events.stream().anyMatch(ScalerEvent::failed);
    }
}
