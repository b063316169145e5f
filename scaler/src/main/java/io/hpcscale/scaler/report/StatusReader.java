package io.hpcscale.scaler.report;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.documents.LeaseDocument;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.PoolOutcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Puts {@code status} together from a planning cycle (which lists each pool's instances and reads its documents, and
 * writes nothing) and the documents the planner does not show: the scaler state, the agents' heartbeats, the lease.
 */
public final class StatusReader {
    private final DocumentStore store;

    public StatusReader(DocumentStore store) {
        this.store = store;
    }

    public ScalerStatus read(Map<String, PoolConfig> pools, CycleOutcome planned) {
        if (planned.error() != null) {
            return new ScalerStatus(planned.at(), null, List.of(), planned.error());
        }
        try {
            LeaseDocument lease = store.read(LeaseDocument.KEY, LeaseDocument.class)
                    .map(DocumentStore.Versioned::document).orElse(null);
            List<AgentDocument> agents = store.inPool(DocumentType.AGENTS, ClusterLoadDocument.META_POOL,
                    AgentDocument.class);
            List<PoolStatus> statuses = new ArrayList<>();
            for (PoolOutcome outcome : planned.pools()) {
                PoolConfig config = pools.get(outcome.pool());
                ScalerStateDocument state = store.read(new DocumentKey(outcome.pool(),
                        ScalerStateDocument.idFor(outcome.pool())), ScalerStateDocument.class)
                        .map(DocumentStore.Versioned::document).orElse(null);
                boolean backingOff = state != null && state.backoffUntil() != null
                        && state.backoffUntil().isAfter(planned.at());
                statuses.add(new PoolStatus(outcome.pool(), outcome.census(), config.fixed(), config.min(),
                        config.max(), backingOff ? state.backoffUntil() : null,
                        backingOff ? state.backoffReason() : null, state == null ? null : state.lastAction(),
                        freshestServing(agents, outcome.pool()), outcome.problem(),
                        state == null ? new TreeMap<>() : state.sealedScaleSets()));
            }
            return new ScalerStatus(planned.at(), lease, statuses, null);
        } catch (StoreException e) {
            return new ScalerStatus(planned.at(), null, List.of(), "the store cannot be read: " + e.getMessage());
        }
    }

    private static AgentDocument freshestServing(List<AgentDocument> agents, String pool) {
        return agents.stream().filter(a -> a.pools().contains(pool))
                .max(Comparator.comparing(AgentDocument::lastCycleAt)).orElse(null);
    }
}
