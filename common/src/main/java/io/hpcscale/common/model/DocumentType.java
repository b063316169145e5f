package io.hpcscale.common.model;

import java.util.Arrays;
import java.util.Optional;

/** The {@code Type} of a ClusterLoad document, as written on the wire. */
public enum DocumentType {
    JOBS("jobs"),
    VMS("vms"),
    DRAINS("drains"),
    AGENTS("agents"),
    EVENTS("events"),
    LEASE("lease"),
    POWER("power"),
    NOTICES("notices"),
    HEALTH("health"),
    WAIT_REASONS("waitreasons"),
    SCALER_STATE("scalerstate"),
    TARGET("target"),
    MARKER("marker"),
    USAGE("usage");

    private final String wireName;

    DocumentType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<DocumentType> fromWireName(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst();
    }
}
