package io.hpcscale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.agent.pbs.PbsAgentMain;
import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.agent.FakeSchedulerAdapter;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandResult;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.common.exec.FakeCommandRunner;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent at 100,000 jobs and 10,000 nodes: cycle time and heap, and the store writes one cycle makes. */
class AgentBenchmark {
    static final int JOBS = 100_000;
    static final int NODES = 10_000;
    static final int QUEUES = 10;

    @TempDir
    Path dir;

    /** Answers qstat and pbsnodes with prepared output, streamed to the reader without being copied. */
    private static CommandRunner prepared(byte[] queues, byte[] jobs, byte[] nodes) {
        return new FakeCommandRunner()
                .answering(List.of("pbsnodes"), c -> new CommandResult(c, nodes, "", Duration.ZERO))
                .answering(List.of("qstat", "-Q"), c -> new CommandResult(c, queues, "", Duration.ZERO))
                .answering(List.of("qstat", "-f"), c -> new CommandResult(c, jobs, "", Duration.ZERO));
    }

    static Map<String, String> poolSettings() {
        Map<String, String> settings = new HashMap<>();
        for (int q = 0; q < QUEUES; q++) {
            settings.put("pool.workq" + q + ".queue", "workq" + q);
        }
        return settings;
    }

    @Test
    void agentCycleAtOneHundredThousandJobs() throws Exception {
        byte[] jobs = PbsOutputs.qstat(JOBS, QUEUES);
        byte[] nodes = PbsOutputs.pbsnodes(NODES, QUEUES, JOBS);
        byte[] queues = "{\"timestamp\":1,\"pbs_version\":\"2022.1.7\",\"pbs_server\":\"pbsserver\",\"Queue\":{}}"
                .getBytes();
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).fromMap(poolSettings(), PbsAgentMain.PROGRAM);
        CommandRunner runner = prepared(queues, jobs, nodes);
        SchedulerAdapter adapter = PbsAgentMain.definition().adapterFactory().create(settings, runner);
        // The agent's default store: its documents live in the file, not in the agent's heap.
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(dir.resolve("agent.db"),
                Duration.ofSeconds(10), Clock.systemUTC())) {
            Agent agent = new Agent(adapter, new DocumentStore(store), PoolMap.fromSettings(settings, "queue"),
                    "bench", "bench");
            CycleReport first = agent.runOnce(Instant.now());
            assertTrue(first.succeeded(), first.error());
            assertEquals(JOBS, first.jobsRead());

            Measure.Timing read;
            Measure.Timing readAnew;
            Measure.Timing cycle;
            double peak;
            double live;
            try (Measure.HeapWatch heap = Measure.watchHeap()) {
                read = Measure.time(2, 7, adapter::read);
                readAnew = Measure.time(2, 7, () -> PbsAgentMain.definition().adapterFactory().create(settings, runner)
                        .read());
                cycle = Measure.time(2, 7, () -> {
                    CycleReport report = agent.runOnce(Instant.now());
                    assertEquals(0, report.written().size(), "unchanged output writes no job or vm document");
                });
                peak = heap.peakMb();
                live = heap.liveMb();
            }
            Measure.report("machine: " + Measure.machine());
            Measure.report(String.format("agent: qstat -f -t -F json %.0f MB (%d jobs, 1%% with malformed numbers), "
                    + "pbsnodes -a -F json %.1f MB (%d nodes)", jobs.length / 1e6, JOBS, nodes.length / 1e6,
                    NODES));
            Measure.report("agent: read + parse + normalize (adapter read, output unchanged since the last read): "
                    + read);
            Measure.report("agent: read + parse + normalize with nothing known from an earlier read (a new "
                    + "process's first read): " + readAnew);
            Measure.report("agent: read + parse + normalize + map + diff (one cycle, output unchanged, SQLite store): "
                    + cycle + " (goal: <= 350 ms)");
            Measure.report(String.format("agent: heap at most %.0f MB in use (garbage included), %.0f MB live between "
                    + "cycles (after a full collection), within -Xmx%d m; of both, the benchmark's own copy of the "
                    + "command output is %.0f MB (AgentProcessBenchmark measures the agent's own process)", peak, live,
                    Runtime.getRuntime().maxMemory() / (1024 * 1024), (jobs.length + nodes.length) / 1e6));
        }
    }

    @Test
    void storeWritesPerAgentCycleOnSqlite() throws Exception {
        FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
        for (int i = 0; i < JOBS; i++) {
            scheduler.putJob(job(i, JobState.Queued));
        }
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).fromMap(poolSettings(), PbsAgentMain.PROGRAM);
        try (CountingStore store = new CountingStore(new SqliteClusterLoadStore(dir.resolve("bench.db"),
                Duration.ofSeconds(10), Clock.systemUTC()))) {
            Agent agent = new Agent(scheduler, new DocumentStore(store), PoolMap.fromSettings(settings, "queue"),
                    "bench", "bench");
            Measure.report("machine: " + Measure.machine());
            cycle(agent, store, "first cycle (every document new)", JOBS);
            cycle(agent, store, "unchanged", 0);
            for (int percent : List.of(1, 10)) {
                int changed = JOBS * percent / 100;
                for (int i = 0; i < changed; i++) {
                    int id = (i * 7919 + percent) % JOBS;
                    scheduler.putJob(job(id, percent == 1 ? JobState.Running : JobState.Hold));
                }
                cycle(agent, store, percent + "% churn", changed);
            }
        }
    }

    private static void cycle(Agent agent, CountingStore store, String what, int changed) throws Exception {
        store.reset();
        long begin = System.nanoTime();
        CycleReport report = agent.runOnce(Instant.now());
        double millis = (System.nanoTime() - begin) / 1e6;
        assertTrue(report.succeeded(), report.error());
        assertEquals(changed + 1, store.written, what + ": changed documents plus the heartbeat");
        Measure.report(String.format("store writes per agent cycle at %d jobs (SQLite), %s: %d documents written "
                + "(%d changed + 1 heartbeat), %d deleted, %.0f ms", JOBS, what, store.written, changed,
                store.deleted, millis));
    }

    private static SchedulerJob job(int i, JobState state) {
        return new SchedulerJob(i + ".pbsserver", List.of("workq" + (i % QUEUES)), state,
                List.of(new Chunk(1 + i % 4, 16, 32768, 0)), 1 + i % 4, Placement.scatter, i % 5 == 0, null);
    }
}
