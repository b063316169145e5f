package io.hpcscale.common.model;

import java.time.Instant;
import java.util.Objects;

/**
 * A node's health check of its current boot ({@code pool.<name>.healthCheck}), written by the node's
 * {@code hpcscale-node-events check} before the scheduler's daemon starts: {@code PENDING} first, then the result.
 * The agent keeps the node out of service unless it passed; once it has taken a failed node out of service it adds
 * {@code heldAt}, for which the node waits before it lets the daemon start, so that a failed node never takes a
 * job. The scaler replaces a node whose check failed after its instance started, counting a failed boot. One per
 * node, in the {@code _meta} partition, like the notices.
 *
 * @param output the check's last lines, for the node's offline reason and {@code status}; null while pending
 * @param heldAt when the agent found the failed node out of service, or null
 */
public record HealthDocument(String id, String name, State state, String output, Instant checkedAt, Instant heldAt)
        implements ClusterLoadDocument {

    /** How far the check has got. */
    public enum State {
        PENDING, PASSED, FAILED
    }

    /** The longest output kept: a reason in the scheduler is short, and the store charges by size. */
    public static final int MAX_OUTPUT = 1000;

    public HealthDocument {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(checkedAt, "checkedAt");
        if (output != null && output.length() > MAX_OUTPUT) {
            output = output.substring(output.length() - MAX_OUTPUT);
        }
    }

    public static HealthDocument of(String nodeName, State state, String output, Instant checkedAt) {
        return new HealthDocument(idFor(nodeName), nodeName, state, output, checkedAt, null);
    }

    public static String idFor(String nodeName) {
        return "health-" + CosmosIds.encode(nodeName);
    }

    public static DocumentKey keyFor(String nodeName) {
        return new DocumentKey(META_POOL, idFor(nodeName));
    }

    public HealthDocument heldAt(Instant when) {
        return new HealthDocument(id, name, state, output, checkedAt, when);
    }

    /** Why the node is out of service, in the scheduler's words where users and administrators look. */
    public String holdReason() {
        return switch (state) {
            case PENDING -> "health check running since " + checkedAt;
            case FAILED -> "health check failed: " + lastLine(output);
            case PASSED -> "health check passed";
        };
    }

    /** The last non-blank line: NHC and Azure's HPC health checks end with what failed. */
    private static String lastLine(String text) {
        if (text == null || text.isBlank()) {
            return "(no output)";
        }
        String[] lines = text.strip().split("\\R");
        return lines[lines.length - 1].strip();
    }

    @Override
    public String poolName() {
        return META_POOL;
    }

    @Override
    public DocumentType type() {
        return DocumentType.HEALTH;
    }
}
