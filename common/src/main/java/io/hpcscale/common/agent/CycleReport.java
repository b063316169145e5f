package io.hpcscale.common.agent;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import java.time.Instant;
import java.util.List;

/**
 * What one agent cycle did.
 *
 * @param succeeded the scheduler was read and what changed was written
 * @param written   job and vm documents written (the heartbeat is not counted)
 * @param problems  what went wrong, for the heartbeat's {@code LastError}; may be non-empty in a successful cycle
 *                  when a drain command failed
 */
public record CycleReport(
        Instant at,
        boolean succeeded,
        int jobsRead,
        int nodesRead,
        List<ClusterLoadDocument> written,
        List<DocumentKey> deleted,
        List<String> takenOffline,
        List<String> broughtBack,
        List<String> problems,
        long millis) {

    public CycleReport {
        written = List.copyOf(written);
        deleted = List.copyOf(deleted);
        takenOffline = List.copyOf(takenOffline);
        broughtBack = List.copyOf(broughtBack);
        problems = List.copyOf(problems);
    }

    /** Why the cycle failed, as a metric's label: store or scheduler; null when it succeeded. */
    public String failureKind() {
        if (succeeded) {
            return null;
        }
        return problems.stream().anyMatch(p -> p.startsWith(Agent.STORE_PROBLEM)) ? "store" : "scheduler";
    }

    /** The problems in one line, or null. */
    public String error() {
        return problems.isEmpty() ? null : String.join("; ", problems);
    }
}
