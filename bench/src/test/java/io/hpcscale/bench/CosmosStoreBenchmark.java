package io.hpcscale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.agent.FakeSchedulerAdapter;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.OfflineMark;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.config.Component;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.store.CosmosClusterLoadStore;
import io.hpcscale.common.store.CosmosSettings;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreUsage;
import io.hpcscale.common.testing.CosmosTestServer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What an agent cycle costs on Cosmos DB at 10,000 jobs and 1,000 nodes: documents written, requests by kind and
 * bytes, as the local protocol server counts them, and request units estimated from Azure's published costs (the
 * local server charges 1 RU for everything).
 */
@ExtendWith(CosmosTestServer.class)
class CosmosStoreBenchmark {
    static final int JOBS = 10_000;
    static final int NODES = 1_000;
    static final int QUEUES = 10;
    /**
     * Azure's published costs at session consistency with default indexing, for documents up to 1 KB (job and vm
     * documents are about 0.4 KB): a point read 1 RU, an insert about 5.7, a replace (an upsert of an existing
     * document) about 10.7, a delete about 5.7, a query about 2.8 per page. Estimates: real Cosmos reports the
     * charge of each request, which the store logs per cycle.
     */
    static final double RU_POINT_READ = 1.0;
    static final double RU_INSERT = 5.7;
    static final double RU_REPLACE = 10.7;
    static final double RU_DELETE = 5.7;
    static final double RU_QUERY_PAGE = 2.8;

    @Test
    void agentCycleCostsOnCosmos() throws Exception {
        FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
        for (int i = 0; i < JOBS; i++) {
            scheduler.putJob(job(i, JobState.Queued));
        }
        for (int i = 0; i < NODES; i++) {
            scheduler.putNode(node(i, NodeJobStatus.Free));
        }
        Map<String, String> pools = new HashMap<>();
        for (int q = 0; q < QUEUES; q++) {
            pools.put("pool.workq" + q + ".queue", "workq" + q);
        }
        Settings settings = new ConfigLoader(ConfigCatalog.standard()).fromMap(pools, Component.PBS_AGENT);
        CosmosTestServer.Running server = CosmosTestServer.running();
        CosmosSettings cosmos = new CosmosSettings(server.endpoint(), "hpcscale", "bench-" + UUID.randomUUID(),
                CosmosTestServer.KEY, null, List.of(), null, true, false, Duration.ofSeconds(30));
        try (CosmosClusterLoadStore store = new CosmosClusterLoadStore(cosmos)) {
            Agent agent = new Agent(scheduler, new DocumentStore(store), PoolMap.fromSettings(settings, "queue"),
                    "bench", "bench");
            Measure.report("machine: " + Measure.machine());
            cycle(agent, store, server, "first cycle (every document new)", JOBS + NODES, true);
            cycle(agent, store, server, "unchanged", 0, false);
            int changed = JOBS / 100;
            for (int i = 0; i < changed; i++) {
                scheduler.putJob(job((i * 7919) % JOBS, JobState.Running));
            }
            cycle(agent, store, server, "1% of the jobs changed", changed, false);
            int gone = JOBS / 100;
            for (int i = 0; i < gone; i++) {
                scheduler.removeJob(((i * 7919 + 13) % JOBS) + ".pbsserver");
            }
            cycle(agent, store, server, "1% of the jobs ended (deleted)", 0, false);
        }
    }

    /** @param inserts whether the documents written are new (inserts) rather than replaced */
    private static void cycle(Agent agent, CosmosClusterLoadStore store, CosmosTestServer.Running server,
            String what, int changed, boolean inserts) throws Exception {
        server.resetStats();
        StoreUsage before = store.usage();
        long begin = System.nanoTime();
        CycleReport report = agent.runOnce(Instant.now());
        double millis = (System.nanoTime() - begin) / 1e6;
        assertTrue(report.succeeded(), report.error());
        StoreUsage used = store.usage().minus(before);
        JsonNode stats = server.stats();
        JsonNode kinds = stats.path("byKind");
        long reads = kinds.path("read").asLong();
        long writes = kinds.path("upsert").asLong() + kinds.path("create").asLong() + kinds.path("replace").asLong()
                + kinds.path("patch").asLong();
        long batches = kinds.path("batch").asLong();
        long deletes = kinds.path("delete").asLong();
        long queries = kinds.path("query").asLong() + kinds.path("queryplan").asLong();
        int written = report.written().size() + 1;
        double estimate = reads * RU_POINT_READ + (written - 1) * (inserts ? RU_INSERT : RU_REPLACE) + RU_REPLACE
                + report.deleted().size() * RU_DELETE + queries * RU_QUERY_PAGE;
        Measure.report(String.format("cosmos, agent cycle at %d jobs and %d nodes, %s: %d documents written (%d "
                + "changed + the heartbeat), %d deleted; %d requests to the server (%d point reads, %d writes, %d "
                + "bulk batches, %d deletes, %d queries or query plans, %d other), %.0f KB sent, %.0f KB received; "
                + "store-reported charge %.0f RU (the local server charges 1 per request); estimated on Azure: "
                + "%.0f RU; %.0f ms", JOBS, NODES, what, written, changed, report.deleted().size(),
                stats.path("requests").asLong(), reads, writes, batches, deletes, queries,
                kinds.path("other").asLong(), stats.path("requestBytes").asLong() / 1024.0,
                stats.path("responseBytes").asLong() / 1024.0, used.requestUnits(), estimate, millis));
        if (changed > 0) {
            assertEquals(changed + 1, written, what + ": changed documents plus the heartbeat");
        }
    }

    private static SchedulerJob job(int i, JobState state) {
        return new SchedulerJob(i + ".pbsserver", List.of("workq" + (i % QUEUES)), state,
                List.of(new Chunk(1 + i % 4, 16, 32768, 0)), 1 + i % 4, Placement.scatter, i % 5 == 0, null);
    }

    private static SchedulerNode node(int i, NodeJobStatus status) {
        return new SchedulerNode(String.format("node%05d", i), List.of("workq" + (i % QUEUES)), status, "free",
                OfflineMark.NONE, false, false, 16, 0, 65536, 0, 0, 0, List.of(),
                Instant.parse("2026-11-22T00:00:00Z"));
    }
}
