package io.hpcscale.scaler.run;

import java.time.Instant;
import java.util.List;

/**
 * One action or refusal of the scaler: what the events documents and the log lines hold.
 *
 * @param action  start, create, stop, boot-timeout, drain, cancel-drain, or a refusal such as stale, backoff,
 *                unsatisfiable, at-max, throttled, instances-unknown
 * @param outcome ok, dry-run, refused, or "failed: ..."
 */
public record ScalerEvent(Instant at, String pool, String action, List<String> instances, String reason,
        String outcome) {
    public ScalerEvent {
        instances = List.copyOf(instances);
    }

    public boolean failed() {
        return outcome.startsWith("failed");
    }
}
