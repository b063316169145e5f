package io.hpcscale.scaler.run;

import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.FakeSchedulerAdapter;
import io.hpcscale.common.agent.OfflineMark;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.store.CosmosClusterLoadStore;
import io.hpcscale.common.store.CosmosSettings;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.testing.CosmosTestServer;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A cluster of the size the Cosmos DB sizing is stated for, on the local server that charges as Azure does: 10 pools,
 * 500 nodes (50 a pool, all running a job) and 5,000 jobs (the 500 running, 4,500 waiting on dependencies), with 100
 * stopped instances a pool to start for new work. The agent (PBS-like, on a scheduler of its own) and the scaler (on
 * a simulated cloud) each have their own Cosmos DB client, as on two hosts. Used by the throttled-store test and by
 * the request-unit benchmark.
 */
public final class CosmosClusterScenario implements AutoCloseable {
    public static final int POOLS = 10;
    public static final int NODES_PER_POOL = 50;
    public static final int SPARE_PER_POOL = 100;
    public static final int JOBS = 5_000;

    private final SettableClock clock = new SettableClock(Instant.now());
    private final FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
    private final SimulatedCloud cloud = new SimulatedCloud(clock);
    private final CosmosClusterLoadStore agentStore;
    private final CosmosClusterLoadStore scalerStore;
    private final Agent agent;
    private final Scaler scaler;
    private final List<ScalerEvent> events = new CopyOnWriteArrayList<>();
    private final Map<String, String> jobOnNode = new HashMap<>();
    private final Map<String, Deque<String>> waiting = new HashMap<>();
    private int nextJob;
    private int ended;

    /** What one cycle cost: request units and requests, as the store counted them from the server's answers. */
    public record Cost(double requestUnits, long requests) {
    }

    /** Unpaced, with requests allowed a minute: a throttled container is retried through, however long it takes. */
    public CosmosClusterScenario() throws CloudException, InterruptedException {
        this(0, Duration.ofSeconds(60));
    }

    /**
     * Each program paced by the SDK to this many RU/s, with the default request timeout (10 s), as an administrator
     * would run them.
     */
    public CosmosClusterScenario(int requestUnitsPerSecond) throws CloudException, InterruptedException {
        this(requestUnitsPerSecond, Duration.ofSeconds(10));
    }

    private CosmosClusterScenario(int requestUnitsPerSecond, Duration requestTimeout)
            throws CloudException, InterruptedException {
        String container = "scenario-" + UUID.randomUUID();
        CosmosSettings cosmos = new CosmosSettings(CosmosTestServer.running().endpoint(), "hpcscale", container,
                CosmosTestServer.KEY, null, List.of(), null, true, false, requestTimeout, requestUnitsPerSecond);
        agentStore = new CosmosClusterLoadStore(cosmos);
        scalerStore = new CosmosClusterLoadStore(cosmos);
        Map<String, String> poolByQueue = new HashMap<>();
        List<PoolRuntime> pools = new ArrayList<>();
        for (int p = 0; p < POOLS; p++) {
            String pool = pool(p);
            poolByQueue.put(pool, pool);
            cloud.addScaleSet(pool, NODES_PER_POOL + SPARE_PER_POOL, pool + "-vm", Duration.ofSeconds(90));
            List<Instance> instances = cloud.instances(pool);
            cloud.provider(pool).start(instances.subList(0, NODES_PER_POOL));
            PoolConfig config = PoolConfigs.withDefaults(pool, new VmShape(16, 65536, 0),
                    NODES_PER_POOL + SPARE_PER_POOL);
            pools.add(new PoolRuntime(config, cloud.provider(pool)));
        }
        clock.advance(Duration.ofMinutes(2));
        for (int p = 0; p < POOLS; p++) {
            for (int n = 1; n <= NODES_PER_POOL; n++) {
                String node = String.format("%s-vm%03d", pool(p), n);
                String job = newJob(pool(p), JobState.Running, node);
                jobOnNode.put(node, job);
                putNode(node, pool(p), job);
            }
        }
        while (nextJob < JOBS) {
            String pool = pool(nextJob % POOLS);
            waiting.computeIfAbsent(pool, p -> new ArrayDeque<>()).add(newJob(pool, JobState.Waiting, null));
        }
        agent = new Agent(scheduler, new DocumentStore(agentStore), new PoolMap(poolByQueue, Map.of()), "head",
                "scenario");
        DocumentStore documents = new DocumentStore(scalerStore);
        ScalerEvents recorder = new ScalerEvents(documents, Duration.ofDays(7), true);
        recorder.addListener(events::add);
        scaler = TestScalers.scaler(pools, documents, recorder, clock, false);
    }

    public static String pool(int p) {
        return "workq" + p;
    }

    public SettableClock clock() {
        return clock;
    }

    public Cost agentCycle() throws InterruptedException {
        double before = agentStore.usage().requestUnits();
        long requests = agentStore.usage().requests();
        if (!agent.runOnce(clock.instant()).succeeded()) {
            throw new IllegalStateException("the agent's cycle failed");
        }
        return new Cost(agentStore.usage().requestUnits() - before, agentStore.usage().requests() - requests);
    }

    public Cost scalerCycle() throws InterruptedException {
        double before = scalerStore.usage().requestUnits();
        long requests = scalerStore.usage().requests();
        CycleOutcome outcome = scaler.runOnce(clock.instant());
        if (outcome.error() != null) {
            throw new IllegalStateException("the scaler's cycle failed: " + outcome.error());
        }
        return new Cost(scalerStore.usage().requestUnits() - before, scalerStore.usage().requests() - requests);
    }

    /** The scaler's check between cycles: one point read of each agent's heartbeat. */
    public Cost scalerQuickCheck() {
        double before = scalerStore.usage().requestUnits();
        long requests = scalerStore.usage().requests();
        scaler.agentsChanged();
        return new Cost(scalerStore.usage().requestUnits() - before, scalerStore.usage().requests() - requests);
    }

    /** The agent's check between cycles: the scheduler's signature and the scaler's drain marker. */
    public Cost agentQuickCheck() throws InterruptedException {
        double before = agentStore.usage().requestUnits();
        long requests = agentStore.usage().requests();
        agent.changed();
        return new Cost(agentStore.usage().requestUnits() - before, agentStore.usage().requests() - requests);
    }

    /**
     * {@code count} running jobs end and as many waiting ones of their pools start on their nodes: twice that many
     * job documents change (one deleted, one rewritten) and each node's document too.
     */
    public void churn(int count) {
        List<String> nodes = new ArrayList<>(jobOnNode.keySet());
        nodes.sort(null);
        for (int i = 0; i < count; i++) {
            String node = nodes.get((int) ((ended * 7919L + i * 104729L) % nodes.size()));
            String pool = poolOfNode(node);
            String next = waiting.get(pool).poll();
            if (next == null) {
                continue;
            }
            scheduler.removeJob(jobOnNode.get(node));
            ended++;
            scheduler.putJob(job(next, pool, JobState.Running, node));
            jobOnNode.put(node, next);
            putNode(node, pool, next);
        }
    }

    /** New jobs, queued, spread over the pools: each needs a node of its own. */
    public List<String> submit(int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(newJob(pool(nextJob % POOLS), JobState.Queued, null));
        }
        return ids;
    }

    /** The instances the scaler started, as its events say. */
    public long started() {
        return events.stream().filter(e -> e.kind() == EventKind.START && e.outcome().ok())
                .mapToLong(e -> e.instances().size()).sum();
    }

    /** The jobs the scheduler has now. */
    public int jobs() {
        return nextJob - ended;
    }

    /** The job documents in the store, read whole (not through the scaler's copy). */
    public int jobDocuments() {
        int count = 0;
        for (int p = 0; p < POOLS; p++) {
            count += scalerStore.query(DocumentType.JOBS, pool(p)).size();
        }
        return count;
    }

    public int activeInstances() {
        return cloud.activeInstances();
    }

    @Override
    public void close() {
        agentStore.close();
        scalerStore.close();
    }

    private String newJob(String pool, JobState state, String node) {
        String id = (nextJob++) + ".pbsserver";
        scheduler.putJob(job(id, pool, state, node));
        return id;
    }

    private static SchedulerJob job(String id, String pool, JobState state, String node) {
        return new SchedulerJob(id, List.of(pool), state, List.of(new Chunk(1, 16, 32768, 0)), 1, Placement.free,
                true, Instant.parse("2026-11-26T00:00:00Z"), node == null ? List.of() : List.of(node));
    }

    private void putNode(String node, String pool, String job) {
        scheduler.putNode(new SchedulerNode(node, List.of(pool), NodeJobStatus.Busy, "job-busy", OfflineMark.NONE,
                false, false, 16, 16, 65536, 32768, 0, 0, List.of(job), Instant.parse("2026-11-26T00:00:00Z")));
    }

    private static String poolOfNode(String node) {
        return node.substring(0, node.indexOf("-vm"));
    }
}
