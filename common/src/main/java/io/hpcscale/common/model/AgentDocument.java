package io.hpcscale.common.model;

import io.hpcscale.common.secrets.Redactor;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * An agent's heartbeat, written every cycle.
 *
 * @param lastCycleAt   when the last cycle ran, whatever its outcome
 * @param lastSuccessAt when the agent last read the scheduler and wrote what it read; the scaler judges staleness
 *                      by this, because a cycle that failed tells it nothing new about the pools
 * @param lastError     what went wrong in the last cycle, or null
 * @param lastChangeAt  when the agent last wrote a change (a job or node document, a drain carried out): the scaler
 *                      reads this one small document every few seconds and runs a cycle at once when it moved, rather
 *                      than waiting for its interval
 */
public record AgentDocument(
        String id,
        String scheduler,
        String host,
        String version,
        Instant lastCycleAt,
        long cycleMillis,
        List<String> pools,
        String lastError,
        Instant lastSuccessAt,
        Instant lastChangeAt) implements ClusterLoadDocument {

    public AgentDocument {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(lastCycleAt, "lastCycleAt");
        pools = List.copyOf(pools);
        lastError = Redactor.text(lastError);
    }

    /** A heartbeat that says nothing about changes: written by tests and the simulator as an agent that reads. */
    public AgentDocument(String id, String scheduler, String host, String version, Instant lastCycleAt,
            long cycleMillis, List<String> pools, String lastError, Instant lastSuccessAt) {
        this(id, scheduler, host, version, lastCycleAt, cycleMillis, pools, lastError, lastSuccessAt, null);
    }

    public static String idFor(String host, String scheduler) {
        return "agent-" + CosmosIds.encode(host) + "-" + scheduler;
    }

    @Override
    public String poolName() {
        return META_POOL;
    }

    @Override
    public DocumentType type() {
        return DocumentType.AGENTS;
    }
}
