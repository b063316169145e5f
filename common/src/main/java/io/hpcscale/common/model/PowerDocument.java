package io.hpcscale.common.model;

import java.time.Instant;
import java.util.Objects;

/**
 * A request from the scheduler's own power saving (Slurm's ResumeProgram or SuspendProgram, through
 * {@code hpcscale-agent-slurm resume|suspend}) to start or stop one node's instance. The scaler carries it out,
 * with its quota, backoff and provider, and deletes it once done.
 */
public record PowerDocument(String id, String poolName, String name, Action action, Instant requestedAt)
        implements ClusterLoadDocument {

    /** What the scheduler asks for. */
    public enum Action {
        resume,
        suspend
    }

    public PowerDocument {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(poolName, "poolName");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(requestedAt, "requestedAt");
    }

    public static PowerDocument request(String poolName, String nodeName, Action action, Instant requestedAt) {
        return new PowerDocument(idFor(nodeName), poolName, nodeName, action, requestedAt);
    }

    public static String idFor(String nodeName) {
        return "power-" + CosmosIds.encode(nodeName);
    }

    @Override
    public DocumentType type() {
        return DocumentType.POWER;
    }
}
