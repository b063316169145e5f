package io.hpcscale.common.metrics;

import io.hpcscale.common.secrets.Redactor;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Whether a service is doing its job, for {@code /healthz}: not when its last {@code unhealthyAfter} cycles all
 * failed, nor (the scaler) from the moment it loses a lease it held until it holds one again. One failed cycle is
 * not a reason to page anyone; a service that keeps failing, or a scaler that stopped acting, is.
 */
public final class Health {
    private final int unhealthyAfter;
    private int failedInARow;
    private String lastFailure;
    private String leaseLost;
    private final Map<String, String> degraded = new TreeMap<>();

    public Health(int unhealthyAfter) {
        if (unhealthyAfter < 1) {
            throw new IllegalArgumentException("unhealthyAfter must be at least 1");
        }
        this.unhealthyAfter = unhealthyAfter;
    }

    public synchronized void cycleSucceeded() {
        failedInARow = 0;
        lastFailure = null;
    }

    public synchronized void cycleFailed(String why) {
        failedInARow++;
        lastFailure = Redactor.text(why);
    }

    /** The scaler lost the lease it held: another scaler took it, or it could not renew it. */
    public synchronized void leaseLost(String why) {
        leaseLost = why;
    }

    public synchronized void leaseHeld() {
        leaseLost = null;
    }

    /**
     * The parts of what the service looks after that cannot do their job though its cycles succeed (a scaler's pools
     * protected after their boots kept failing), as its last cycle found them: none for a standby, which looks after
     * nothing.
     */
    public synchronized void degraded(Map<String, String> parts) {
        degraded.clear();
        parts.forEach((part, why) -> degraded.put(part, Redactor.text(why)));
    }

    /** Why the service is unhealthy, or empty when it is healthy. */
    public synchronized Optional<String> problem() {
        if (leaseLost != null) {
            return Optional.of("the lease was lost while this scaler was active: " + leaseLost);
        }
        if (failedInARow >= unhealthyAfter) {
            return Optional.of(failedInARow + " cycles in a row failed; the last: " + lastFailure);
        }
        if (!degraded.isEmpty()) {
            return Optional.of(degraded.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                    .collect(Collectors.joining("; ")));
        }
        return Optional.empty();
    }
}
