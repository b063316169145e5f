package io.hpcscale.scaler.run;

import io.hpcscale.scaler.plan.EventKind;
import java.time.Instant;
import java.util.List;

/** One action or refusal of the scaler: what the events documents and the log lines hold. */
public record ScalerEvent(Instant at, String pool, EventKind kind, List<String> instances, String reason,
        Outcome outcome) {
    public ScalerEvent {
        instances = List.copyOf(instances);
    }

    public boolean failed() {
        return outcome.failed();
    }
}
