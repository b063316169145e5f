package io.hpcscale.scaler.service;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Plays the agent for scaler tests that run the scaler as a process: writes the heartbeat, one queued job per
 * wanted node, the vm documents of the nodes whose instance is on (busy while jobs are wanted, else free and long
 * idle), and takes drained nodes offline as the agent would, echoing the drain request.
 */
final class FakeAgent {
    private final DocumentStore store;
    private final PowerScripts power;
    private final String pool;
    private final int instances;
    private volatile int jobsWanted;

    FakeAgent(DocumentStore store, PowerScripts power, String pool, int instances) {
        this.store = store;
        this.power = power;
        this.pool = pool;
        this.instances = instances;
    }

    /** Queued (then running) jobs of one node each; 0 lets every node go idle. */
    void jobs(int count) {
        jobsWanted = count;
    }

    synchronized void step() {
        Instant now = Instant.now();
        Map<String, DrainDocument> drains = new HashMap<>();
        store.inPool(DocumentType.DRAINS, pool, DrainDocument.class).forEach(d -> drains.put(d.name(), d));
        List<ClusterLoadDocument> upserts = new ArrayList<>();
        List<DocumentKey> deletes = new ArrayList<>();
        int running = 0;
        for (int i = 1; i <= instances; i++) {
            String node = "node" + i;
            if (!power.on("vm" + i)) {
                deletes.add(new DocumentKey(pool, node));
                continue;
            }
            DrainDocument drain = drains.get(node);
            boolean busy = drain == null && running < jobsWanted;
            String job = "job" + (running + 1);
            if (busy) {
                running++;
            }
            upserts.add(new VmDocument(node, pool, node, busy ? NodeJobStatus.Busy : NodeJobStatus.Free,
                    drain != null ? "offline" : busy ? "job-busy" : "free", drain != null, drain != null, false, false, 4,
                    busy ? 4 : 0, 1000, 0, 0, 0, busy ? List.of(job) : List.of(),
                    busy ? now : now.minus(Duration.ofHours(1)), now, drain == null ? null : drain.requestedAt(),
                    "agent-fake"));
        }
        for (int j = 1; j <= Math.max(jobsWanted, instances); j++) {
            DocumentKey key = new DocumentKey(pool, "job" + j);
            if (j > jobsWanted) {
                deletes.add(key);
            } else {
                upserts.add(new JobDocument("job" + j, pool, "job" + j, pool, j <= running ? JobState.Running
                        : JobState.Queued, 1, List.of(new Chunk(1, 4, 0, 0)), Placement.free, false, now,
                        "agent-fake"));
            }
        }
        upserts.add(new AgentDocument("agent-fake", "fake", "head", "test", now, 1, List.of(pool), null, now));
        store.upsert(upserts);
        store.delete(deletes);
    }
}
