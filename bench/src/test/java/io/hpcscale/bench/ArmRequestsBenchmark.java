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
import io.hpcscale.cloud.azure.FakeArmServer;
import io.hpcscale.cloud.azure.fake.FakeArm;
import io.hpcscale.cloud.azure.fake.Instance;
import io.hpcscale.cloud.azure.fake.PowerState;
import io.hpcscale.cloud.azure.fake.RequestKind;
import io.hpcscale.cloud.azure.fake.RequestLog;
import io.hpcscale.cloud.azure.fake.ScaleSet;
import io.hpcscale.cloud.azure.fake.ScaleSetSpec;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.run.ActionGate;
import io.hpcscale.scaler.run.PoolRuntime;
import io.hpcscale.scaler.run.Scaler;
import io.hpcscale.scaler.run.ScalerEvents;
import io.hpcscale.scaler.run.TestScalers;
import io.hpcscale.scaler.Programs;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Resource Manager requests per scaler cycle for a pool of 1,000 instances, Uniform and Flexible: steady, a
 * scale-up of 100 and a scale-down of 100, counted by the fake Resource Manager, through the real SDK and the
 * production credential. Listing pages hold 50 instances, as Azure's do. The cycles follow each other at once, so
 * after the first they plan from its listing (azure.minListInterval); what an hour costs against Compute's
 * budgets is {@link ComputeBudgetBenchmark}'s.
 */
@ExtendWith(FakeArmServer.class)
class ArmRequestsBenchmark {
    static final int INSTANCES = 1_000;
    static final int RUNNING = 100;
    static final int STEP = 100;

    private final FakeArm arm = FakeArmServer.arm();

    @Test
    void requestsPerCycleAtOneThousandInstances() throws Exception {
        Measure.report("machine: " + Measure.machine());
        for (boolean flexible : List.of(false, true)) {
            cycles(flexible);
        }
    }

    private void cycles(boolean flexible) throws Exception {
        String mode = flexible ? "Flexible" : "Uniform";
        String rg = "rg-bench-" + mode.toLowerCase();
        arm.resourceGroup(rg, "westeurope", Map.of());
        ScaleSetSpec spec = flexible ? ScaleSetSpec.flexible(rg, "hb") : ScaleSetSpec.uniform(rg, "hb");
        ScaleSet scaleSet = arm.scaleSet(spec.instances(INSTANCES, PowerState.DEALLOCATED));
        for (Instance instance : scaleSet.instances().subList(0, RUNNING)) {
            arm.state().setPowerState(rg, "hb", instance.instanceId(), PowerState.RUNNING);
        }
        Map<String, String> values = new LinkedHashMap<>();
        values.put("azure.cloud", "custom");
        values.put("azure.resourceManagerEndpoint", arm.baseUrl() + "/");
        values.put("azure.subscriptionId", arm.subscriptionId());
        values.put("pool.hb.provider", "azure");
        values.put("pool.hb.max", Integer.toString(INSTANCES));
        values.put("pool.hb.azure.resourceGroup", rg);
        values.put("pool.hb.azure.scaleSet", "hb");
        values.put("pool.hb.azure.nodeName", "vmName");
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER);
        InMemoryClusterLoadStore memory = new InMemoryClusterLoadStore(Clock.systemUTC());
        DocumentStore documents = new DocumentStore(memory);
        ActionGate gate = new ActionGate();
        CloudProviders providers = new CloudProviders(settings, new ZtExecCommandRunner(),
                new SimulatedCloud(Clock.systemUTC()), gate);
        List<PoolRuntime> pools = new ArrayList<>();
        for (PoolConfig pool : PoolConfigs.fromSettings(settings).values()) {
            pools.add(new PoolRuntime(pool, providers.forPool(pool.name())));
        }
        Scaler scaler = TestScalers.scaler(pools, documents, new ScalerEvents(documents, Duration.ofDays(1), true),
                Clock.systemUTC(), false);
        Predicate<RequestLog.Entry> ours = e -> e.path().toLowerCase().contains("/resourcegroups/" + rg);

        List<String> running = scaleSet.instances().subList(0, RUNNING).stream().map(Instance::name).toList();
        reported(documents, running, true, null);
        Map<RequestKind, Integer> first = cycle(scaler, ours);
        Map<RequestKind, Integer> steady = cycle(scaler, ours);
        report(mode, "first cycle (reads the scale set and its VM size once)", first);
        report(mode, "steady (" + RUNNING + " running, all busy, nothing queued)", steady);

        List<JobDocument> jobs = new ArrayList<>();
        for (int i = 0; i < STEP; i++) {
            jobs.add(new JobDocument("j" + i, "hb", "j" + i, "workq", JobState.Queued, 1,
                    List.of(new Chunk(1, 120, 400000, 0)), Placement.free, true, Instant.now(), "bench"));
        }
        documents.upsert(jobs);
        reported(documents, running, true, null);
        Map<RequestKind, Integer> up = cycle(scaler, ours);
        report(mode, "scale-up of " + STEP, up);
        assertEquals(RUNNING + STEP, scaleSet.instances().stream().filter(i -> i.powerState() == PowerState.RUNNING
                || i.powerState() == PowerState.STARTING).count());

        documents.delete(jobs.stream().map(j -> new DocumentKey("hb", j.id())).toList());
        List<String> idle = scaleSet.instances().stream().filter(i -> i.powerState() == PowerState.RUNNING)
                .map(Instance::name).filter(name -> !running.contains(name)).toList();
        reported(documents, running, true, null);
        reported(documents, idle, false, null);
        cycle(scaler, ours);
        Map<String, Instant> drains = new TreeMap<>();
        documents.all(DocumentType.DRAINS, DrainDocument.class).forEach(d -> drains.put(d.name(), d.requestedAt()));
        assertEquals(STEP, drains.size(), "the idle nodes were asked to drain");
        reported(documents, running, true, null);
        reported(documents, idle, false, drains);
        Map<RequestKind, Integer> down = cycle(scaler, ours);
        report(mode, "scale-down of " + STEP + " (the drained nodes deallocated)", down);
        assertEquals(RUNNING, scaleSet.instances().stream().filter(i -> i.powerState() == PowerState.RUNNING)
                .count());
    }

    /** The agent's documents: nodes busy, or idle for an hour (offline and drained when {@code drains} says so). */
    private static void reported(DocumentStore documents, List<String> nodes, boolean busy,
            Map<String, Instant> drains) {
        Instant now = Instant.now();
        List<VmDocument> vms = new ArrayList<>();
        for (String node : nodes) {
            Instant drainRequestedAt = drains == null ? null : drains.get(node);
            boolean offline = drainRequestedAt != null;
            vms.add(new VmDocument(node, "hb", node, busy ? NodeJobStatus.Busy : NodeJobStatus.Free,
                    offline ? "offline" : busy ? "job-exclusive" : "free", offline, offline, false, false, 120,
                    busy ? 120 : 0, 440000, 0, 0, 0, busy ? List.of("r-" + node) : List.of(),
                    busy ? now : now.minus(Duration.ofHours(1)), now, drainRequestedAt, "bench"));
        }
        documents.upsert(vms);
        documents.upsert(List.of(new AgentDocument("agent-bench-pbs", "pbs", "bench", "bench", now, 1,
                List.of("hb"), null, now, now)));
    }

    private Map<RequestKind, Integer> cycle(Scaler scaler, Predicate<RequestLog.Entry> ours) throws Exception {
        Map<RequestKind, Integer> before = counts(ours);
        scaler.runOnce(Instant.now());
        Map<RequestKind, Integer> after = counts(ours);
        Map<RequestKind, Integer> used = new TreeMap<>();
        after.forEach((kind, n) -> {
            int delta = n - before.getOrDefault(kind, 0);
            if (delta > 0) {
                used.put(kind, delta);
            }
        });
        return used;
    }

    private Map<RequestKind, Integer> counts(Predicate<RequestLog.Entry> ours) {
        Map<RequestKind, Integer> counts = new TreeMap<>();
        for (RequestLog.Entry entry : arm.log().entries()) {
            boolean polling = entry.kind() == RequestKind.OPERATION_POLL
                    || entry.kind() == RequestKind.OPERATION_RESULT;
            boolean sizes = entry.kind() == RequestKind.SKUS;
            if (ours.test(entry) || polling || sizes) {
                counts.merge(entry.kind(), 1, Integer::sum);
            }
        }
        return counts;
    }

    private static void report(String mode, String what, Map<RequestKind, Integer> requests) {
        int total = requests.values().stream().mapToInt(Integer::intValue).sum();
        StringBuilder kinds = new StringBuilder();
        requests.forEach((kind, n) -> kinds.append(kinds.length() == 0 ? "" : ", ").append(n).append(' ')
                .append(kind.label()));
        Measure.report(String.format("ARM requests per scaler cycle, %s scale set of %d instances, %s: %d (%s)",
                mode, INSTANCES, what, total, kinds));
    }
}
