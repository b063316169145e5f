package io.hpcscale.scaler.run;

import io.hpcscale.scaler.plan.Plan;
import java.util.List;

/**
 * One pool's part of a cycle.
 *
 * @param plan    what was planned, or null when the pool could not be planned
 * @param problem why the pool could not be listed, planned or recorded, or null
 */
public record PoolOutcome(String pool, Plan plan, List<ScalerEvent> events, String problem) {
    public PoolOutcome {
        events = List.copyOf(events);
    }

    /** Whether anything went wrong: the pool could not be listed or planned, or an action failed. */
    public boolean failed() {
        return problem != null || events.stream().anyMatch(ScalerEvent::failed);
    }
}
