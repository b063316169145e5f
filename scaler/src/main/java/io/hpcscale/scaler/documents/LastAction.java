package io.hpcscale.scaler.documents;

import java.time.Instant;
import java.util.List;

/** The scaler's most recent action on a pool, for people looking at its state. */
public record LastAction(Instant at, String action, List<String> instances, String reason, String outcome) {
    public LastAction {
        instances = List.copyOf(instances);
    }
}
