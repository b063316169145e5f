package io.hpcscale.scaler.run;

import io.hpcscale.scaler.plan.Plan;
import java.util.List;

/** One pool's plan in a cycle and what came of it. */
public record PoolOutcome(Plan plan, List<ScalerEvent> events) {
    public PoolOutcome {
        events = List.copyOf(events);
    }
}
