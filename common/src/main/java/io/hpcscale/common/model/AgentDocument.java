package io.hpcscale.common.model;

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
        Instant lastSuccessAt) implements ClusterLoadDocument {

    public AgentDocument {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(lastCycleAt, "lastCycleAt");
        pools = List.copyOf(pools);
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
