package io.hpcscale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.agent.k8s.K8sAgentMain;
import io.hpcscale.agent.k8s.MockCluster;
import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kubernetes agent at 1,000 nodes and 10,000 pods (9,000 running, 9 a node, and 1,000 the scheduler could not
 * place), 50 Volcano gangs and 50 Kueue workloads, on fabric8's mock API server in this JVM, filled once: the read's
 * time and API requests, a whole cycle's time and the heap; and the agent as an administrator runs it,
 * {@code bin/hpcscale-agent-k8s once} with the launcher's JVM options, measured by GNU time.
 */
class K8sAgentBenchmark {
    static final int NODES = 1_000;
    static final int RUNNING_PER_NODE = 9;
    static final int PENDING = 1_000;
    static final int GANGS = 50;
    static final int WORKLOADS = 50;
    static final int POOLS = 10;
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path TIME = Path.of("/usr/bin/time");

    private static MockCluster cluster;
    private static double fillSeconds;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        cluster = MockCluster.start(true);
        long filling = System.nanoTime();
        fill(cluster);
        fillSeconds = (System.nanoTime() - filling) / 1e9;
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void agentCycleAtTenThousandPodsAndOneThousandNodes() throws Exception {
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).fromMap(settings(), K8sAgentMain.PROGRAM);
        SchedulerAdapter adapter = K8sAgentMain.definition().adapterFactory().create(settings, null);
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(dir.resolve("agent.db"),
                Duration.ofSeconds(10), Clock.systemUTC())) {
            Agent agent = new Agent(adapter, new DocumentStore(store), PoolMap.fromSettings(settings,
                    "poolLabelValue"), "bench", "bench");
            CycleReport first = agent.runOnce(Instant.now());
            assertTrue(first.succeeded(), first.error());
            assertEquals(PENDING + GANGS + WORKLOADS, first.jobsRead());
            assertEquals(NODES, first.nodesRead());

            int before = cluster.requests();
            adapter.read();
            int requestsPerRead = cluster.requests() - before;
            Measure.Timing read;
            Measure.Timing cycle;
            double peak;
            double live;
            try (Measure.HeapWatch heap = Measure.watchHeap()) {
                read = Measure.time(2, 5, adapter::read);
                cycle = Measure.time(1, 5, () -> {
                    CycleReport report = agent.runOnce(Instant.now());
                    assertEquals(0, report.written().size(), "an unchanged cluster writes nothing");
                });
                peak = heap.peakMb();
                live = heap.liveMb();
            }
            before = cluster.requests();
            adapter.quickSignature();
            int quickRequests = cluster.requests() - before;
            Measure.report("machine: " + Measure.machine());
            Measure.report(String.format("agent-k8s: %d nodes, %d pods (%d running, %d unschedulable), %d Volcano "
                    + "gangs, %d Kueue workloads on the mock API server (made in %.0f s)", NODES,
                    NODES * RUNNING_PER_NODE + PENDING, NODES * RUNNING_PER_NODE, PENDING, GANGS, WORKLOADS,
                    fillSeconds));
            Measure.report("agent-k8s: read (list nodes, pods, gangs, workloads, local queues; map): " + read);
            Measure.report("agent-k8s: one cycle (read, map, diff; cluster unchanged, SQLite store): " + cycle);
            Measure.report("agent-k8s: API requests per read: " + requestsPerRead + " (the mock serves each list "
                    + "whole; a real API server at agent.k8s.pageSize 500 pages pods in "
                    + ((NODES * RUNNING_PER_NODE + PENDING + 499) / 500) + " and nodes in " + ((NODES + 499) / 500)
                    + "); per quick check: " + quickRequests);
            Measure.report(String.format("agent-k8s: heap at most %.0f MB in use (garbage included), %.0f MB live "
                    + "between cycles (after a full collection), the mock server's %d objects included, within "
                    + "-Xmx%d m", peak, live, NODES + NODES * RUNNING_PER_NODE + PENDING + GANGS + WORKLOADS,
                    Runtime.getRuntime().maxMemory() / (1024 * 1024)));
        }
    }

    @Test
    void onceAsAnAdministratorRunsItTwice() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(TIME), "needs GNU time (Debian: apt-get install time)");
        List<String> config = new ArrayList<>(List.of("store.sqlite.path = " + dir.resolve("clusterload.db"),
                "agent.host = bench"));
        new TreeMap<>(settings()).forEach((key, value) -> config.add(key + " = " + value));
        Files.write(dir.resolve("hpcscale.properties"), config);
        String first = once();
        String second = once();
        assertTrue(second.contains("0 documents written, 0 deleted"), second);
        Measure.report("agent-k8s process: bin/hpcscale-agent-k8s once, JVM options of bin/launch: "
                + launcherOptions());
        Measure.report("agent-k8s process: first run (every document new): " + first);
        Measure.report("agent-k8s process: second run (cluster unchanged, nothing written): " + second);
    }

    private Map<String, String> settings() throws IOException {
        Map<String, String> values = new TreeMap<>();
        for (int p = 0; p < POOLS; p++) {
            values.put("pool.p" + p + ".max", "200");
        }
        values.put("agent.k8s.kubeconfig", cluster.kubeconfig(dir).toString());
        return values;
    }

    /** One {@code once} under GNU time: its resident peak and wall time, and what it printed. */
    private String once() throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(TIME.toString(), "-v",
                ROOT.resolve("bin/hpcscale-agent-k8s").toString(), "once", "--config",
                dir.resolve("hpcscale.properties").toString())
                .redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(dir.resolve("stderr.txt").toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("HPCSCALE_") || k.equals("JAVA_OPTS"));
        int exit = builder.start().waitFor();
        String stdout = Files.readString(dir.resolve("stdout.txt"));
        String time = Files.readString(dir.resolve("stderr.txt"));
        assertEquals(0, exit, stdout + time);
        return String.format("at most %.0f MB resident, %s s; %s", Long.parseLong(field(time,
                "Maximum resident set size \\(kbytes\\): (\\d+)")) / 1024.0, field(time,
                "Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\): (\\S+)"), stdout.strip());
    }

    private static String field(String text, String pattern) {
        Matcher m = Pattern.compile(pattern).matcher(text);
        assertTrue(m.find(), "GNU time printed no " + pattern + ":\n" + text);
        return m.group(1);
    }

    private static String launcherOptions() throws IOException {
        Matcher m = Pattern.compile("agent-\\*\\) defaults=\"([^\"]*)\"").matcher(Files.readString(ROOT.resolve(
                "bin/launch")));
        return m.find() ? m.group(1) : "(not found in bin/launch)";
    }

    private static void fill(MockCluster cluster) {
        for (int n = 0; n < NODES; n++) {
            String node = String.format("p%d-vm%04d", n % POOLS, n);
            cluster.node(node, "p" + (n % POOLS), 16, "64Gi");
            for (int r = 0; r < RUNNING_PER_NODE; r++) {
                cluster.running(cluster.pod("batch", node + "-task-" + r, "1", "2Gi"), node);
            }
        }
        for (int i = 0; i < PENDING; i++) {
            cluster.unschedulable(cluster.pod("batch", "pending-" + i, "4", "8Gi").editSpec()
                    .withNodeSelector(Map.of(MockCluster.POOL_LABEL, "p" + (i % POOLS))).endSpec());
        }
        for (int g = 0; g < GANGS; g++) {
            cluster.create(MockCluster.POD_GROUPS, "hpc", "gang-" + g, MockCluster.map("minMember", 4, "queue",
                    "default", "minResources", MockCluster.map("cpu", "32", "memory", "64Gi")),
                    MockCluster.map("phase", "Pending"));
        }
        for (int w = 0; w < WORKLOADS; w++) {
            cluster.create(MockCluster.WORKLOADS, "team", "train-" + w, MockCluster.map("queueName", "q",
                    "podSets", List.of(MockCluster.map("name", "main", "count", 2, "template", MockCluster.map("spec",
                            MockCluster.map("nodeSelector", MockCluster.map(MockCluster.POOL_LABEL, "p" + (w % POOLS)),
                                    "containers", List.of(MockCluster.map("name", "c", "image", "x", "resources",
                                            MockCluster.map("requests", MockCluster.map("cpu", "8"))))))))),
                    MockCluster.map("conditions", List.of(MockCluster.map("type", "QuotaReserved", "status",
                            "True"))));
        }
    }
}
