package io.hpcscale.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.scaler.cloud.CloudProviders;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.cloud.azure.AzureClients;
import io.hpcscale.cloud.azure.AzureCloudModule;
import io.hpcscale.cloud.azure.FakeArmServer;
import io.hpcscale.cloud.azure.TestPace;
import io.hpcscale.cloud.azure.fake.ComputeBuckets;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Instance;
import io.hpcscale.cloud.azure.fake.MutableClock;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.RequestLog;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.run.ActionGate;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.PoolOutcome;
import io.hpcscale.scaler.run.PoolRuntime;
import io.hpcscale.scaler.run.Scaler;
import io.hpcscale.scaler.run.ScalerEvents;
import io.hpcscale.scaler.run.TestScalers;
import io.hpcscale.scaler.Programs;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What one simulated hour of the scaler at default settings costs in Resource Manager requests, for 1, 10 and 100
 * Uniform scale sets of 1,000 instances in one subscription, against each of Compute's throttling buckets
 * (../shared/notes/azure-as-it-really-behaves.md): a cycle a minute; in each scale set 100 nodes busy throughout,
 * 50 jobs queued at minute 10 and their nodes idle from minute 30 (so 50 starts, 50 drains and 50 deallocations per
 * scale set). The fake Resource Manager counts every request per bucket and would refuse any over its budget; the
 * real SDK, provider and scaler send them, on one settable clock.
 */
@ExtendWith(FakeArmServer.class)
class ComputeBudgetBenchmark {
    private static final int INSTANCES = 1_000;
    private static final int BUSY = 100;
    private static final int JOBS = 50;
    private static final Duration HOUR = Duration.ofHours(1);

    private final FakeArm arm = FakeArmServer.arm();

    @Test
    void anHourOfCyclesAgainstComputesBudgetsAtOneTenAndAHundredScaleSets() throws Exception {
        for (int scaleSets : List.of(1, 10, 100)) {
            hour(scaleSets);
        }
    }

    private void hour(int scaleSets) throws Exception {
        MutableClock clock = MutableClock.startingNow();
        Clock before = arm.settings().clock();
        arm.settings().clock(clock);
        arm.buckets().refill();
        String rg = "rg-budget-" + scaleSets;
        arm.resourceGroup(rg, "westeurope", Map.of());
        Map<String, String> values = new LinkedHashMap<>();
        values.put("azure.cloud", "custom");
        values.put("azure.resourceManagerEndpoint", arm.baseUrl() + "/");
        values.put("azure.subscriptionId", arm.subscriptionId());
        for (int s = 0; s < scaleSets; s++) {
            String pool = "p" + s;
            arm.scaleSet(ScaleSetSpec.uniform(rg, pool).instances(INSTANCES, PowerState.DEALLOCATED));
            for (Instance instance : arm.state().scaleSet(rg, pool).orElseThrow().instances().subList(0, BUSY)) {
                arm.state().setPowerState(rg, pool, instance.instanceId(), PowerState.RUNNING);
            }
            values.put("pool." + pool + ".provider", "azure");
            values.put("pool." + pool + ".max", Integer.toString(INSTANCES));
            values.put("pool." + pool + ".azure.resourceGroup", rg);
            values.put("pool." + pool + ".azure.scaleSet", pool);
            values.put("pool." + pool + ".azure.nodeName", "vmName");
        }
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER);
        TestPace pace = new TestPace(clock);
        DocumentStore documents = new DocumentStore(new InMemoryClusterLoadStore(clock));
        CloudProviders providers = new CloudProviders(settings, new ZtExecCommandRunner(), new SimulatedCloud(clock),
                new ActionGate(), List.of(new AzureCloudModule(azure -> new AzureClients(azure, null, pace))));
        List<PoolRuntime> pools = new ArrayList<>();
        for (PoolConfig pool : PoolConfigs.fromSettings(settings).values()) {
            pools.add(new PoolRuntime(pool, providers.forPool(pool.name())));
        }
        Scaler scaler = TestScalers.scaler(pools, documents, new ScalerEvents(documents, Duration.ofDays(1), true),
                clock, false);
        int logStart = arm.log().entries().size();
        Instant start = clock.instant();
        int cycles = 0;
        int unknownPoolCycles = 0;
        while (clock.instant().isBefore(start.plus(HOUR))) {
            Duration at = Duration.between(start, clock.instant());
            agent(documents, rg, scaleSets, clock.instant(), at);
            CycleOutcome outcome = scaler.runOnce(clock.instant());
            for (PoolOutcome pool : outcome.pools()) {
                if (pool.plan() == null || !pool.plan().instancesKnown()) {
                    unknownPoolCycles++;
                }
            }
            cycles++;
            clock.advance(Duration.ofSeconds(60));
        }
        List<RequestLog.Entry> all = arm.log().entries();
        List<RequestLog.Entry> hour = all.subList(logStart, all.size());
        Map<RequestKind, Integer> byKind = new EnumMap<>(RequestKind.class);
        hour.forEach(e -> byKind.merge(e.kind(), 1, Integer::sum));
        long throttled = hour.stream().filter(e -> e.status() == 429).count();
        int requests = hour.size();
        Measure.report(String.format("Azure, %d Uniform scale set%s of %d instances, one simulated hour at default "
                + "settings (%d cycles): %d ARM requests, %.1f per cycle (%s); %d throttled", scaleSets,
                scaleSets == 1 ? "" : "s", INSTANCES, cycles, requests, requests / (double) cycles, byKind,
                throttled));
        Map<String, long[]> spent = arm.buckets().counts();
        for (ComputeBuckets.Limit limit : List.of(ComputeBuckets.LIST_3_MIN, ComputeBuckets.LIST_30_MIN,
                ComputeBuckets.VM_ACTIONS, ComputeBuckets.GET_OPERATION)) {
            long[] counts = spent.getOrDefault(limit.name(), new long[] {0, 0, limit.capacity()});
            double perHour = limit.capacity() * (HOUR.toSeconds() / (double) limit.window().toSeconds());
            Measure.report(String.format("Azure, %d scale sets: %s (%d per %d min%s): %d requests in the hour, "
                    + "%.1f%% of its hourly refill; lowest level %d of %d (%.0f%% left)", scaleSets, limit.name(),
                    limit.capacity(), limit.window().toMinutes(),
                    limit == ComputeBuckets.GET_OPERATION ? ", per operation" : "", counts[0], 100 * counts[0] / perHour,
                    counts[2], limit.capacity(), 100.0 * counts[2] / limit.capacity()));
        }
        int pages = byKind.getOrDefault(RequestKind.LIST, 0);
        Measure.report(String.format("Azure, %d scale sets: each scale set listed about every %.0f s (%d list "
                + "pages of %d per listing); %d pool-cycles of %d had no listing yet", scaleSets,
                HOUR.toSeconds() / Math.max(1.0, pages / (double) (INSTANCES / 50) / scaleSets), pages,
                INSTANCES / 50, unknownPoolCycles, cycles * scaleSets));
        assertEquals(0, throttled, "not one throttled answer");
        arm.settings().clock(before);
    }

    /**
     * The agent's documents: in each pool the first {@link #BUSY} instances' nodes busy throughout; {@link #JOBS} jobs
     * queued at minute 10, each taken by a node as soon as one more is up; from minute 30 the jobs are over and
     * their nodes idle, taken offline once asked to drain.
     */
    private void agent(DocumentStore documents, String rg, int scaleSets, Instant now, Duration at) {
        Map<String, Instant> drains = new LinkedHashMap<>();
        documents.all(DocumentType.DRAINS, DrainDocument.class).forEach(d -> drains.put(d.name(), d.requestedAt()));
        boolean jobsOn = at.compareTo(Duration.ofMinutes(10)) >= 0 && at.compareTo(Duration.ofMinutes(30)) < 0;
        List<VmDocument> vms = new ArrayList<>();
        List<JobDocument> jobs = new ArrayList<>();
        List<DocumentKey> gone = new ArrayList<>();
        List<String> pools = new ArrayList<>();
        for (int s = 0; s < scaleSets; s++) {
            String pool = "p" + s;
            pools.add(pool);
            List<Instance> instances = arm.state().scaleSet(rg, pool).orElseThrow().instances();
            int extra = 0;
            for (int i = 0; i < instances.size(); i++) {
                Instance instance = instances.get(i);
                String node = instance.name();
                if (instance.powerState() != PowerState.RUNNING) {
                    gone.add(new DocumentKey(pool, node));
                    continue;
                }
                boolean busy = i < BUSY || (jobsOn && extra++ < JOBS);
                Instant drained = busy ? null : drains.get(node);
                vms.add(new VmDocument(node, pool, node, busy ? NodeJobStatus.Busy : NodeJobStatus.Free,
                        drained != null ? "offline" : busy ? "job-exclusive" : "free", drained != null,
                        drained != null, false, busy, 120, busy ? 120 : 0, 440000, 0, 0, 0,
                        busy ? List.of("r-" + node) : List.of(), busy ? now : START_OF_IDLE.apply(now, at), now,
                        drained, "bench"));
            }
            for (int j = 0; j < JOBS; j++) {
                String id = pool + "-j" + j;
                if (jobsOn && j >= extra) {
                    jobs.add(new JobDocument(id, pool, id, "workq", JobState.Queued, 1,
                            List.of(new Chunk(1, 120, 400000, 0)), Placement.free, true, now, "bench"));
                } else {
                    gone.add(new DocumentKey(pool, id));
                }
            }
        }
        documents.delete(gone);
        documents.upsert(jobs);
        documents.upsert(vms);
        documents.upsert(List.of(new AgentDocument("agent-bench", "pbs", "bench", "bench", now, 1, pools, null, now,
                now)));
    }

    /** When an idle node was last busy: the end of the jobs at minute 30. */
    private static final java.util.function.BiFunction<Instant, Duration, Instant> START_OF_IDLE =
            (now, at) -> now.minus(at).plus(Duration.ofMinutes(30));
}
