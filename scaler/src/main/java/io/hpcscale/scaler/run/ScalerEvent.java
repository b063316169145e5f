package io.hpcscale.scaler.run;

import io.hpcscale.common.secrets.Redactor;
import io.hpcscale.scaler.plan.EventKind;
import java.time.Instant;
import java.util.List;

/**
 * One action or refusal of the scaler: what the events documents and the log lines hold. The reason may quote a
 * command and what it printed, so anything shaped like a secret is taken out here, before any of them sees it.
 */
public record ScalerEvent(Instant at, String pool, EventKind kind, List<String> instances, String reason,
        Outcome outcome) {
    public ScalerEvent {
        instances = List.copyOf(instances);
        reason = Redactor.text(reason);
    }

    public boolean failed() {
        return outcome.failed();
    }
}
