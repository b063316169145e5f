package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.scaler.removal.RemovalMessage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds pool states for planner tests: a pool "p" of 16-CPU, 64 GiB instances (with {@code gpus} GPUs, none by
 * default) named p-vm001, p-vm002, ...
 */
final class PoolStateBuilder {
    static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

    int min = 0;
    int max = 10;
    int maxStart = 100;
    int maxStop = 10;
    int gpus = 0;
    boolean countHeld = false;
    boolean canCreate = false;
    boolean spot = false;
    String fallback;
    Instant agentReadAt = NOW.minusSeconds(30);
    ScalerStateDocument state = ScalerStateDocument.empty("p");
    InstanceList unknown;
    final List<JobDocument> jobs = new ArrayList<>();
    final List<VmDocument> vms = new ArrayList<>();
    final List<DrainDocument> drains = new ArrayList<>();
    final List<io.hpcscale.common.model.PowerDocument> powerRequests = new ArrayList<>();
    boolean powerSaving = false;
    /** A fixed pool's target as read this cycle; a demand pool when {@code fixedShrink} is null. */
    TargetReading target;
    String fixedShrink;
    int evictionRounds = 3;
    String decisions = String.join(", ", PoolConfig.OWN_DECISIONS);
    final List<Instance> instances = new ArrayList<>();
    final Map<String, String> poolOfNode = new HashMap<>();
    final List<RemovalMessage.Request> removals = new ArrayList<>();

    static String node(int i) {
        return String.format("p-vm%03d", i);
    }

    static String id(int i) {
        return "p_" + i;
    }

    PoolConfig config() {
        Map<String, String> settings = new HashMap<>(Map.of("min", Integer.toString(min),
                "countHeldJobs", Boolean.toString(countHeld), "maxStartPerCycle", Integer.toString(maxStart),
                "maxStopPerCycle", Integer.toString(maxStop), "followPowerRequests", Boolean.toString(powerSaving),
                "target", fixedShrink == null ? "demand" : "fixed", "shrink", fixedShrink == null ? "lazy" : fixedShrink,
                "evictionRoundsBeforeBackoff", Integer.toString(evictionRounds), "decisions", decisions));
        if (healthCheck != null) {
            settings.put("healthCheck", healthCheck);
        }
        settings.putAll(extraSettings);
        return PoolConfigs.withDefaults("p", new VmShape(16, 65536, gpus), max, settings);
    }

    /** More of the pool's settings, by their name after {@code pool.p.}. */
    final Map<String, String> extraSettings = new HashMap<>();

    /** The pool's {@code healthCheck}, or null for none. */
    String healthCheck;

    /** Instance i was started by hpcscale at {@code since} and its node has not reported yet. */
    PoolStateBuilder booting(int i, Instant since) {
        state = state.withInstance(id(i), InstanceRecord.blank().started(since, "test"));
        return this;
    }

    /** A pool of target = fixed whose target reads {@code count}. */
    PoolStateBuilder fixed(int count, String shrink) {
        fixedShrink = shrink;
        target = TargetReading.of(count, "tag TOTAL_NODES of resource group rg");
        return this;
    }

    PoolStateBuilder instance(int i, PowerState state) {
        instances.add(new Instance(id(i), node(i), state));
        return this;
    }

    /** Instance i stopped with its memory saved: a start resumes it. */
    PoolStateBuilder hibernated(int i) {
        instances.add(new Instance(id(i), node(i), PowerState.STOPPED, null, true));
        return this;
    }

    /** Instance i as a cloud that spells its machine's name its own way, e.g. Azure's upper-case computer names. */
    PoolStateBuilder instanceNamed(int i, String machineName, PowerState state) {
        instances.add(new Instance(id(i), machineName, state));
        return this;
    }

    PoolStateBuilder stopped(int count) {
        for (int i = 1; i <= count; i++) {
            instance(instances.size() + 1, PowerState.STOPPED);
        }
        return this;
    }

    /** A running instance whose node is up and free, idle since {@code idleSince}. */
    PoolStateBuilder freeNode(int i, Instant idleSince) {
        instance(i, PowerState.RUNNING);
        vms.add(vm(i, NodeJobStatus.Free, 0, List.of(), false, false, idleSince, null));
        return this;
    }

    /** A running instance whose node runs a job on {@code cpusUsed} CPUs. */
    PoolStateBuilder busyNode(int i, int cpusUsed, String job) {
        instance(i, PowerState.RUNNING);
        vms.add(vm(i, NodeJobStatus.Busy, cpusUsed, List.of(job), false, false, NOW.minusSeconds(600), null));
        return this;
    }

    static VmDocument vm(int i, NodeJobStatus status, int cpusUsed, List<String> jobIds, boolean offline,
            boolean down, Instant lastBusyAt, Instant drainRequestedAt) {
        return new VmDocument(node(i), "p", node(i), status, "state", offline, offline, down, false, 16, cpusUsed, 65536, 0,
                0, 0, jobIds, lastBusyAt, NOW.minusSeconds(60), drainRequestedAt, "agent-h-pbs");
    }

    PoolStateBuilder drain(int i, Instant requestedAt) {
        drains.add(DrainDocument.request("p", node(i), "idle", requestedAt));
        return this;
    }

    PoolStateBuilder replaceVm(int i, VmDocument vm) {
        vms.removeIf(v -> v.name().equals(node(i)));
        vms.add(vm);
        return this;
    }

    PoolStateBuilder job(String id, JobState state, Placement placement, boolean exclusive, Chunk... chunks) {
        int count = 0;
        for (Chunk c : chunks) {
            count += c.count();
        }
        jobs.add(new JobDocument(id, "p", id, "p", state, count, List.of(chunks), placement, exclusive,
                NOW.minusSeconds(jobs.size() + 1L), "agent-h-pbs"));
        return this;
    }

    PoolStateBuilder queued(String id, int cpus) {
        return job(id, JobState.Queued, Placement.free, false, new Chunk(1, cpus, 1024, 0));
    }

    private final Map<String, NoticeDocument> notices = new HashMap<>();
    private final Map<String, HealthDocument> health = new HashMap<>();

    /** The node's health check, as its {@code hpcscale-node-check} writes it, at this time. */
    PoolStateBuilder health(String node, HealthDocument.State state, String output, Instant checkedAt) {
        health.put(NodeNames.key(node), HealthDocument.of(node, state, output, checkedAt));
        return this;
    }

    PoolState build() {
        return new PoolState(config(), jobs, vms, drains, powerRequests, unknown != null ? unknown : InstanceList.of(instances),
                canCreate, spot, poolOfNode, agentReadAt, state, NOW, fallback, target, removals,
                config().matching().node(config().name(), config().shape(), Map.of()), notices, health);
    }

    /** What the platform announced for a node, as its {@code hpcscale-node-events} writes it. */
    PoolStateBuilder notice(String node, String eventType) {
        notices.put(NodeNames.key(node), NoticeDocument.of(node,
                "EV-" + node, eventType, NOW.plusSeconds(30), "", NOW.minusSeconds(5)));
        return this;
    }

    PlanResult plan() {
        return new Planner(Duration.ofMinutes(6)).plan(build());
    }

    /** The plan with these decisions of an administrator's own, in the order {@link #decisions} gives. */
    PlanResult plan(CustomDecision... custom) {
        return new Planner(Duration.ofMinutes(6), CustomDecisions.byName(List.of(custom))).plan(build());
    }
}
