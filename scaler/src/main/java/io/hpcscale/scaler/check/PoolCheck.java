package io.hpcscale.scaler.check;

import java.util.List;

/** What {@code check} found for one pool, in the order it looked. */
public record PoolCheck(String pool, String provider, List<Finding> findings) {
    public PoolCheck {
        findings = List.copyOf(findings);
    }

    public long problems() {
        return findings.stream().filter(f -> !f.ok()).count();
    }
}
