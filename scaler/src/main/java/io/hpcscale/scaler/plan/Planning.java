package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.InstanceRecord;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.ScalerStateDocument;
import io.hpcscale.common.model.StopKind;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.plan.DemandCalculator.Capacity;
import io.hpcscale.scaler.plan.DemandCalculator.Kind;
import io.hpcscale.scaler.plan.Plan.CancelDrain;
import io.hpcscale.scaler.plan.Plan.Create;
import io.hpcscale.scaler.plan.Plan.DrainRequest;
import io.hpcscale.scaler.plan.Plan.Note;
import io.hpcscale.scaler.plan.Plan.Start;
import io.hpcscale.scaler.plan.Plan.Stop;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One pool's planning for one cycle: what {@link Planner} does, with the pool's state at hand. The collections it
 * builds are the plan's actions; {@code memory} is the scaler's state as the plan leaves it.
 */
final class Planning {
    /** How soon after a growth an instance that vanishes counts as an overprovisioned extra. */
    static final Duration OVERPROVISION_WINDOW = Duration.ofMinutes(15);
    final Duration staleAfter;
    final PoolState s;
    final PoolConfig pool;
    final Instant now;
    final List<Start> starts = new ArrayList<>();
    final List<DrainRequest> drains = new ArrayList<>();
    final List<CancelDrain> cancels = new ArrayList<>();
    final List<Stop> stops = new ArrayList<>();
    final List<Plan.PowerDone> powerDone = new ArrayList<>();
    final List<Note> notes = new ArrayList<>();
    final List<Plan.Found> found = new ArrayList<>();
    final List<Plan.Acceptance> acceptances = new ArrayList<>();
    final List<Plan.Removal> removals = new ArrayList<>();
    final Set<String> leaving = new HashSet<>();
    final List<Plan.RemovalAnswer> removalAnswers = new ArrayList<>();
    final Map<String, VmDocument> vmsByNode = new HashMap<>();
    final Map<String, DrainDocument> drainsByNode = new HashMap<>();
    final List<Instance> running = new ArrayList<>();
    final List<Instance> booting = new ArrayList<>();
    final List<Instance> stopped = new ArrayList<>();
    /** Instances whose power state the cloud does not say: never acted on, but counted against the max. */
    final List<Instance> unknown = new ArrayList<>();
    final int queuedJobs;
    ScalerStateDocument memory;
    Create create;

    Planning(PoolState state, Duration staleAfter) {
        this.staleAfter = staleAfter;
        this.s = state;
        this.pool = state.pool();
        this.now = state.now();
        state.vms().forEach(vm -> vmsByNode.put(NodeNames.key(vm.name()), vm));
        state.drains().forEach(d -> drainsByNode.put(NodeNames.key(d.name()), d));
        this.memory = state.state();
        this.queuedJobs = (int) state.jobs().stream().filter(this::considered).count();
    }

    PlanResult run() {
        if (!s.instances().known()) {
            notes.add(new Note(EventKind.INSTANCES_UNKNOWN, "the instance list is unknown ("
                    + s.instances().unknownBecause() + "): nothing is started, drained or stopped"));
            return result(Demand.none());
        }
        boolean fresh = fresh();
        if (!fresh && !agentless()) {
            notes.add(new Note(EventKind.STALE, s.agentReadAt() == null
                    ? "no agent has reported this pool yet: nothing is drained or stopped, nor started beyond min"
                    : "the agent last read the scheduler at " + s.agentReadAt() + ", more than "
                            + Durations.format(staleAfter) + " ago: nothing is drained or stopped, nor started "
                            + "beyond min, until it reports again"));
        }
        observe();
        backOffOnRepeatedEvictions();
        classifyInstances(fresh);
        new RemovalPlanning(this).plan(fresh);
        if (fresh) {
            noteNodesWithoutInstance();
            stopFailedBoots();
        }
        int active = running.size() + booting.size() + unknown.size();
        if (pool.fixed()) {
            new FixedTargetPlanning(this, fresh).plan(active);
            return result(Demand.none());
        }
        if (pool.slurmPowerSaving()) {
            followPowerRequests(active, fresh);
            return result(Demand.none());
        }
        Demand demand = fresh ? demand(newNodesAllowed(active)) : Demand.none();
        scaleUp(demand, active, fresh);
        if (fresh) {
            handleDrains(demand);
            requestDrains(demand, active);
        } else {
            withdrawDrainsOfVanishedInstances();
        }
        return result(demand);
    }

    Set<String> fitOnExisting() {
        if (!s.instances().known() || !fresh()) {
            return Set.of();
        }
        observe();
        classifyInstances(true);
        return demand(0).placedOnExisting();
    }

    /**
     * A fixed pool that no agent reports and that has no node documents at all: no node will report, so an
     * instance's boot ends when the cloud lists it running, and nothing is known of its jobs. A pool whose agent
     * merely stopped reporting still has its nodes' documents, and is stale instead.
     */
    boolean agentless() {
        return pool.fixed() && s.agentReadAt() == null && s.vms().isEmpty();
    }

    /**
     * An instance whose removal was taken on: it counts for nothing from now on, and is acted on only to remove it.
     */
    void leave(Instance instance) {
        running.remove(instance);
        booting.remove(instance);
        stopped.remove(instance);
        leaving.add(NodeNames.key(instance.nodeName()));
    }

    /** Evictions found this cycle count towards backoff ({@link PoolBackoff}); entering it is an event. */
    private void backOffOnRepeatedEvictions() {
        if (found.stream().noneMatch(f -> f.kind() == EventKind.EVICTED)) {
            return;
        }
        boolean before = memory.inBackoff(now);
        memory = PoolBackoff.afterEvictions(memory, pool, now);
        if (!before && memory.inBackoff(now)) {
            notes.add(new Note(EventKind.EVICTION_BACKOFF, memory.backoffReason() + ": the region keeps taking "
                    + "instances back, so none is started until " + memory.backoffUntil() + " (pool." + pool.name()
                    + ".capacityBackoff)"));
        }
    }

    private boolean fresh() {
        return s.agentReadAt() != null && !s.agentReadAt().plus(staleAfter).isBefore(now);
    }

    private boolean considered(JobDocument job) {
        return job.status() == JobState.Queued || (pool.countHeldJobs() && job.status() == JobState.Hold);
    }

    VmDocument vmOf(Instance instance) {
        return vmsByNode.get(NodeNames.key(instance.nodeName()));
    }

    boolean drained(Instance instance) {
        return drainsByNode.containsKey(NodeNames.key(instance.nodeName()));
    }

    /**
     * The instance's node when it is in service, so that its room counts: reported, up, and not held offline by an
     * administrator (a node hpcscale drained is in service until its drain completes); null otherwise.
     */
    VmDocument inService(Instance instance) {
        VmDocument vm = vmOf(instance);
        return vm == null || vm.down() || vm.heldByAdministrator() ? null : vm;
    }

    /** The pool in whose partition the agent reports the instance's node: its own, unless it is a fallback. */
    String nodePoolOf(Instance instance) {
        VmDocument vm = vmOf(instance);
        return vm != null ? vm.poolName() : pool.name();
    }

    /** The instance's node as the scheduler spells it: its documents and commands use that name. */
    String nodeOf(Instance instance) {
        VmDocument vm = vmOf(instance);
        if (vm != null) {
            return vm.name();
        }
        DrainDocument drain = drainsByNode.get(NodeNames.key(instance.nodeName()));
        return drain != null ? drain.name() : instance.nodeName();
    }

    private PlanResult result(Demand demand) {
        return new PlanResult(new Plan(pool.name(), starts, create, drains, cancels, stops, powerDone, notes,
                found, queuedJobs, s.instances().unknownBecause(), demand, passedOn(demand), acceptances,
                removals, removalAnswers), memory);
    }

    /**
     * The jobs the next pool of the group should take: those this pool cannot place, and, while it is in backoff,
     * those that need new nodes. Nothing is passed on when the pool's instances or its agent's read are unknown:
     * not knowing is no reason to start nodes elsewhere.
     */
    private Set<String> passedOn(Demand demand) {
        if (s.fallback() == null || !s.instances().known() || !fresh()) {
            return Set.of();
        }
        Set<String> passed = new HashSet<>(demand.notPlaced());
        if (memory.inBackoff(now)) {
            s.jobs().stream().filter(this::considered).map(JobDocument::schedulerId)
                    .filter(id -> !demand.placedOnExisting().contains(id)).forEach(passed::add);
        }
        return passed;
    }

    /**
     * Brings the stored state up to date with the listing. An action recorded as pending was asked of the cloud
     * by a scaler that did not live to see its outcome: the listing settles it. Active instances that no record
     * explains were created by a pending create, or are recorded as found active.
     */
    private void observe() {
        Set<String> listed = s.instances().instances().stream().map(Instance::id).collect(Collectors.toSet());
        memory = memory.withoutOldRemovals(now, listed);
        for (Map.Entry<String, InstanceRecord> gone : memory.instances().entrySet()) {
            if (listed.contains(gone.getKey()) || !gone.getValue().running()) {
                continue;
            }
            if (overprovisionedExtra(gone.getValue())) {
                notes.add(new Note(EventKind.OVERPROVISIONED, "instance " + gone.getKey() + " appeared beyond what "
                        + "was asked when the pool grew at " + memory.grownAt() + " and is gone again: the scale set "
                        + "overprovisions (Azure makes extra instances and deletes them), which is no eviction; "
                        + "hpcscale-scaler check says whether it does and how to turn it off"));
            } else {
                foundStoppedElsewhere(gone.getKey(), gone.getKey(), "is gone from the cloud's listing");
            }
        }
        memory = memory.onlyInstances(listed);
        SortedMap<String, InstanceRecord> records = new TreeMap<>(memory.instances());
        ScalerStateDocument.PendingCreate creating = memory.pendingCreate();
        int attributed = 0;
        for (Instance instance : sortedByNode(s.instances().instances())) {
            InstanceRecord record = records.get(instance.id());
            if (instance.state() == PowerState.UNKNOWN) {
                // The cloud does not say: whatever was pending or booting stays so until it does.
                continue;
            }
            if (instance.state() == PowerState.FAILED) {
                if (record == null && creating != null && attributed < creating.count()) {
                    // One of the instances the growth asked for, failed: a failed boot of hpcscale's.
                    attributed++;
                    record = InstanceRecord.seenActive(creating.at(), true).started(creating.at(),
                            creating.reason());
                }
                record = failedVm(instance, record);
                if (record != null) {
                    records.put(instance.id(), record);
                }
                continue;
            }
            boolean active = instance.state().active();
            if (record != null && record.pending() != null) {
                record = settle(instance, record, active);
            } else if (record != null && record.running() && instance.state() == PowerState.STOPPED) {
                record = record.booting() ? stoppedWhileBooting(instance, record)
                        : record.stopped(now, foundStoppedElsewhere(instance.id(), instance.nodeName(),
                                "is listed stopped"), "stopped, not by hpcscale");
            }
            if (record == null && active) {
                boolean startingNow = instance.state() == PowerState.STARTING;
                if (creating != null && attributed < creating.count()) {
                    attributed++;
                    record = InstanceRecord.seenActive(creating.at(), true).started(creating.at(),
                            creating.reason());
                } else {
                    record = InstanceRecord.seenActive(now, startingNow);
                }
            } else if (record != null && record.booting() && !active) {
                record = record.bootEnded();
            } else if (record != null && !record.booting() && instance.state() == PowerState.STARTING) {
                record = record.bootSeen(now);
            }
            if (record != null) {
                records.put(instance.id(), record);
            }
        }
        memory = memory.withInstances(records);
        if (creating != null && (attributed >= creating.count()
                || !now.isBefore(creating.at().plus(pool.bootTimeout())))) {
            memory = memory.withPendingCreate(null);
        } else if (creating != null && attributed > 0) {
            memory = memory.withPendingCreate(new ScalerStateDocument.PendingCreate(creating.count() - attributed,
                    creating.at(), creating.reason()));
        }
    }

    /** Whether the node ran a job after hpcscale started its instance. */
    private static boolean busySince(VmDocument vm, InstanceRecord record) {
        return vm != null && record != null && record.startedAt() != null
                && (!vm.jobIds().isEmpty() || (vm.lastBusyAt() != null && vm.lastBusyAt().isAfter(record.startedAt())));
    }

    /**
     * Whether an instance gone from the listing is one a scale set that overprovisions made beyond what was asked
     * and then deleted: found active at or after hpcscale's last growth without being one of the instances asked
     * for (those are attributed to the growth), and gone within {@link #OVERPROVISION_WINDOW} of it (Microsoft
     * Learn, scale set design overview: Azure "spins up more VMs than you asked for, then deletes the extra VMs").
     */
    private boolean overprovisionedExtra(InstanceRecord record) {
        Instant grown = memory.grownAt();
        return grown != null && !record.startedByHpcscale() && record.startedAt() != null
                && !record.startedAt().isBefore(grown) && now.isBefore(grown.plus(OVERPROVISION_WINDOW));
    }

    /**
     * An instance hpcscale last knew running that stopped or vanished without hpcscale stopping it: on a Spot
     * pool the cloud took it back (an eviction, counted); elsewhere someone else stopped or deleted it. Either
     * way it is an event, never a failed boot, and a stopped one is started again while jobs need it.
     */
    private StopKind foundStoppedElsewhere(String instanceId, String node, String how) {
        if (s.spot()) {
            memory = memory.withEviction();
            found.add(new Plan.Found(EventKind.EVICTED, instanceId, "instance " + instanceId + " (node " + node
                    + ") " + how + ": the cloud took the Spot instance back; jobs it ran are the scheduler's "
                    + "to requeue, and it is started again while jobs need it"));
            return StopKind.EVICTED;
        }
        found.add(new Plan.Found(EventKind.STOPPED_ELSEWHERE, instanceId, "instance " + instanceId + " (node "
                + node + ") " + how + ", but hpcscale did not stop it (an administrator, the portal, or a "
                + "maintenance event?); it is started again while jobs need it"));
        return StopKind.STOPPED_ELSEWHERE;
    }

    /**
     * An instance whose provisioning failed. One hpcscale started (or was starting) is a failed boot, counted once;
     * any other is said once in a note. Either way it is not started again: what failed needs an administrator.
     */
    private InstanceRecord failedVm(Instance instance, InstanceRecord record) {
        String why = "instance " + instance.id() + " failed to provision" + (instance.failure() == null ? ""
                : " (" + instance.failure() + ")");
        boolean ours = record != null && (record.booting()
                || (record.pending() != null && record.pending().start()));
        if (!ours) {
            notes.add(new Note(EventKind.FAILED_VM, why + ": hpcscale does not start it again; delete it, or "
                    + "redeploy it in the portal"));
            return record;
        }
        found.add(new Plan.Found(EventKind.FAILED_VM, instance.id(), why + ": counted as a failed boot"));
        memory = PoolBackoff.afterFailedBoot(memory, pool, now);
        if (memory.inBackoff(now)) {
            notes.add(new Note(EventKind.BACKOFF, memory.backoffReason() + ": no instance is started until "
                    + memory.backoffUntil()));
        }
        return record.stopped(now, StopKind.BOOT_FAILURE, why);
    }

    /** A start that did not take, or a boot cut short: not a failed boot, and no eviction to count. */
    private InstanceRecord stoppedWhileBooting(Instance instance, InstanceRecord record) {
        if (instance.failure() != null && instance.failure().capacity()) {
            String why = "the start of instance " + instance.id() + " asked at " + record.startedAt() + " failed: "
                    + instance.failure();
            found.add(new Plan.Found(EventKind.STOPPED_ELSEWHERE, instance.id(), why + "; the pool backs off"));
            memory = PoolBackoff.afterRefusal(memory, pool, now, "capacity error: " + why);
            return record.stopped(now, StopKind.STOPPED_ELSEWHERE, why);
        }
        String why = "instance " + instance.id() + " was started at " + record.startedAt() + " but is listed "
                + "stopped before its node reported: the start did not take, or it was stopped while it booted";
        found.add(new Plan.Found(EventKind.STOPPED_ELSEWHERE, instance.id(), why));
        return record.stopped(now, StopKind.STOPPED_ELSEWHERE, why);
    }

    private InstanceRecord settle(Instance instance, InstanceRecord record, boolean active) {
        InstanceRecord.Pending pending = record.pending();
        String asked = (pending.start() ? "the start" : "the stop") + " asked at " + pending.at()
                + " by a scaler that did not record its outcome";
        String state = instance.state().name().toLowerCase(Locale.ROOT);
        if (pending.start()) {
            found.add(new Plan.Found(EventKind.SETTLED, instance.id(), active
                    ? asked + ": the cloud lists it " + state + ", its boot is timed from then"
                    : asked + " did not happen: the cloud lists it " + state));
            return active ? record.started(pending.at(), pending.reason()) : record.withPending(null);
        }
        if (active) {
            found.add(new Plan.Found(EventKind.SETTLED, instance.id(), asked + " did not happen: the cloud lists "
                    + "it " + state));
            return record.withPending(null);
        }
        found.add(new Plan.Found(EventKind.SETTLED, instance.id(), asked + ": the cloud lists it " + state
                + (pending.stopKind() == StopKind.BOOT_FAILURE ? "; counted as a failed boot" : "")));
        if (pending.stopKind() == StopKind.BOOT_FAILURE) {
            memory = PoolBackoff.afterFailedBoot(memory, pool, now);
            if (memory.inBackoff(now)) {
                notes.add(new Note(EventKind.BACKOFF, memory.backoffReason() + ": no instance is started until "
                        + memory.backoffUntil()));
            }
        }
        return record.stopped(pending.at(), pending.stopKind(), pending.reason());
    }

    /**
     * Instances that hpcscale started (or found starting) are booting until their node reports to the scheduler;
     * every other running instance is up. A running instance whose node no agent reports is left alone: its
     * node may well run jobs under a mapping hpcscale does not know.
     */
    private void classifyInstances(boolean fresh) {
        SortedMap<String, InstanceRecord> booted = new TreeMap<>();
        for (Instance instance : sortedByNode(s.instances().instances())) {
            VmDocument vm = vmOf(instance);
            boolean reported = (vm != null && !vm.down()) || s.reportedInAnotherPool(instance.nodeName());
            InstanceRecord record = memory.instance(instance.id()).orElse(null);
            boolean bootingRecord = record != null && record.booting();
            // Starting by the listing, yet its node took a job since hpcscale started it: it is up. The listing
            // may be older than that (listings are spaced out to spare Azure's budget). A node merely reported
            // is no proof: the scheduler shows a node it has not yet seen go down.
            PowerState state = instance.state() == PowerState.STARTING && fresh && reported && !agentless()
                    && busySince(vm, record) ? PowerState.RUNNING : instance.state();
            switch (state) {
                case STARTING -> booting.add(instance);
                case RUNNING -> {
                    if (bootingRecord && !(fresh && reported) && !agentless()) {
                        booting.add(instance);
                        continue;
                    }
                    if (bootingRecord) {
                        booted.put(instance.id(), record.bootEnded());
                    }
                    running.add(instance);
                    if (fresh && vm == null && !s.reportedInAnotherPool(instance.nodeName())) {
                        notes.add(new Note(EventKind.UNREPORTED_NODE, "instance " + instance.id() + " runs but "
                                + "no agent reports its node " + instance.nodeName() + " in this pool (check the "
                                + "pool's queue, partition or nodePattern); hpcscale will not stop it"));
                    }
                }
                case STOPPED -> stopped.add(instance);
                case UNKNOWN -> unknown.add(instance);
                case STOPPING, FAILED -> {
                    // On its way down, or broken: neither capacity nor something to act on.
                }
            }
        }
        if (!booted.isEmpty()) {
            SortedMap<String, InstanceRecord> records = new TreeMap<>(memory.instances());
            records.putAll(booted);
            memory = memory.withInstances(records).withBootFailures(0);
        }
    }

    /**
     * Nodes an agent reports in this pool that no instance of the pool is, by name: a naming the provider does not
     * match (Azure's nodeName setting) or a queue mapping that claims foreign nodes. hpcscale never acts on them.
     */
    private void noteNodesWithoutInstance() {
        List<String> strangers = s.vms().stream().map(VmDocument::name)
                .filter(name -> s.instances().byNode(name).isEmpty()).sorted().toList();
        if (!strangers.isEmpty()) {
            notes.add(new Note(EventKind.NODE_WITHOUT_INSTANCE, Words.count(strangers.size(), "node")
                    + " reported in this pool " + (strangers.size() == 1 ? "matches" : "match") + " no instance "
                    + "of its scale set: " + String.join(", ", strangers.subList(0, Math.min(10,
                            strangers.size()))) + (strangers.size() > 10 ? ", ..." : "") + " (check the pool's "
                    + "node naming, e.g. azure.nodeName, and the agent's queue or partition mapping); hpcscale "
                    + "leaves them alone"));
        }
    }

    /**
     * Stops instances whose node has not reported within the boot timeout, and running instances whose node the
     * scheduler has not reached for as long (a VM that hung or died: nothing else would ever stop it, since an
     * unreachable node's idle time means nothing), unless {@link StopGuard} says no. A node the agent reports is
     * first taken out of service (a drain request), so that no job lands on it between the agent's read and the
     * stop.
     */
    private void stopFailedBoots() {
        Map<Instance, String> failed = new LinkedHashMap<>();
        String timeout = Durations.format(pool.bootTimeout());
        for (Instance instance : booting) {
            Instant since = memory.bootingSince(instance.id());
            if (since != null && !since.plus(pool.bootTimeout()).isAfter(now)) {
                failedNode(instance, "its node " + instance.nodeName() + " did not report to the scheduler within "
                        + "the boot timeout of " + timeout, failed);
            }
        }
        for (Instance instance : running) {
            VmDocument vm = vmOf(instance);
            // The agent writes a node's document when its state changes: SeenAt is when it first saw it down.
            if (vm != null && vm.down() && !vm.heldByAdministrator() && vm.seenAt() != null
                    && !vm.seenAt().plus(pool.bootTimeout()).isAfter(now)) {
                failedNode(instance, "the scheduler has not reached its node " + vm.name() + " since "
                        + vm.seenAt() + ", longer than the boot timeout of " + timeout, failed);
            }
        }
        failed.forEach((instance, reason) -> {
            booting.remove(instance);
            running.remove(instance);
            stops.add(new Stop(instance, nodeOf(instance), nodePoolOf(instance), reason, StopKind.BOOT_FAILURE));
        });
    }

    /** A node that failed: stopped when {@link StopGuard} allows it, else taken out of service first, or waited for. */
    private void failedNode(Instance instance, String why, Map<Instance, String> failed) {
        VmDocument vm = vmOf(instance);
        DrainDocument drain = drainsByNode.get(NodeNames.key(instance.nodeName()));
        Optional<String> refusal = StopGuard.refusal(StopKind.BOOT_FAILURE, vm, drain);
        if (refusal.isEmpty()) {
            failed.put(instance, why);
        } else if (drain == null && vm.idle() && vm.down() && !vm.heldByAdministrator()) {
            drains.add(new DrainRequest(instance, nodeOf(instance), why + ": out of service before its instance is "
                    + "stopped"));
        } else if (!vm.idle()) {
            notes.add(new Note(EventKind.WAITING_FOR_JOBS, "instance " + instance.id() + ": " + why + ", but "
                    + refusal.get() + " (" + String.join(", ", vm.jobIds()) + " on " + vm.name() + "); it is "
                    + "stopped only once no job is listed there"));
        }
    }

    /**
     * How many nodes the pool may still add: up to its max, and, in a group with a fallback after it, no more
     * than it can start or create, so that jobs beyond go on to the fallback.
     */
    private int newNodesAllowed(int active) {
        int room = Math.max(0, pool.max() - active);
        return s.fallback() != null && !s.canCreate() ? Math.min(room, stopped.size()) : room;
    }

    private Demand demand(int newNodesAllowed) {
        List<JobDocument> considered = s.jobs().stream().filter(this::considered).toList();
        List<Capacity> capacity = new ArrayList<>();
        for (Instance instance : running) {
            VmDocument vm = inService(instance);
            if (vm == null) {
                continue;
            }
            Kind kind = drained(instance) ? Kind.DRAINING : Kind.RUNNING;
            if (vm.exclusive()) {
                // A job holds it exclusively: the CPUs it shows unused take no other job.
                capacity.add(new Capacity(vm.name(), kind, 0, 0, 0, false));
                continue;
            }
            int cpus = vm.cpusTotal() > 0 ? vm.cpusTotal() - vm.cpusUsed() : pool.shape().cpus();
            long memoryMb = vm.memoryMb() > 0 ? vm.memoryMb() - vm.memoryMbUsed() : pool.shape().memoryMb();
            int gpus = vm.gpus() > 0 ? vm.gpus() - vm.gpusUsed() : pool.shape().gpus();
            capacity.add(new Capacity(vm.name(), kind, Math.max(0, cpus), Math.max(0, memoryMb),
                    Math.max(0, gpus), vm.idle() && vm.cpusUsed() == 0));
        }
        for (Instance instance : booting) {
            capacity.add(new Capacity(instance.nodeName(), Kind.BOOTING, pool.shape().cpus(),
                    pool.shape().memoryMb(), pool.shape().gpus(), true));
        }
        Demand demand = new DemandCalculator(pool.shape(), pool.max())
                .compute(considered, capacity, newNodesAllowed);
        if (s.fallback() == null) {
            for (Demand.Unsatisfiable job : demand.unsatisfiable()) {
                notes.add(new Note(EventKind.UNSATISFIABLE, "job " + job.jobId() + " can never run in this pool: "
                        + job.reason()));
            }
        }
        return demand;
    }

    private void scaleUp(Demand demand, int active, boolean fresh) {
        int forMin = Math.max(0, pool.min() - active);
        int wanted = Math.max(forMin, fresh ? demand.newNodes() : 0);
        if (demand.jobsBeyondMax() > 0) {
            notes.add(new Note(EventKind.AT_MAX, Words.count(demand.jobsBeyondMax(), "queued job")
                    + (demand.jobsBeyondMax() == 1 ? " needs" : " need") + " more nodes than the pool's max of "
                    + pool.max() + (s.fallback() == null ? " allows"
                            : " and its stopped instances allow: offered to pool " + s.fallback())));
        }
        if (wanted == 0) {
            return;
        }
        int runnable = demand.jobsConsidered() - demand.unsatisfiable().size();
        String reason = demand.newNodes() > 0 && fresh
                ? Words.count(runnable, "queued job") + (runnable == 1 ? " needs " : " need ")
                        + Words.count(demand.newNodes(), "more node")
                : "the pool's min is " + pool.min() + " and " + Words.count(active, "instance") + " "
                        + (active == 1 ? "is" : "are") + " active";
        startOrCreate(wanted, active, reason);
    }

    /**
     * Starts stopped instances, then creates, up to {@code wanted} within max, the per-cycle step and backoff.
     */
    void startOrCreate(int wanted, int active, String reason) {
        if (memory.inBackoff(now)) {
            notes.add(new Note(EventKind.BACKOFF, "in backoff until " + memory.backoffUntil() + " ("
                    + memory.backoffReason() + "): " + wanted + " instances not started"
                    + (s.fallback() == null ? "" : "; their jobs are offered to pool " + s.fallback())));
            return;
        }
        int count = Math.min(Math.min(wanted, pool.max() - active), pool.maxStartPerCycle());
        List<Instance> candidates = startable();
        for (int i = 0; i < count && i < candidates.size(); i++) {
            Instance instance = candidates.get(i);
            starts.add(new Start(instance, nodeOf(instance), reason, drained(instance), false));
        }
        int remaining = count - starts.size();
        if (remaining > 0 && s.canCreate()) {
            create = new Create(remaining, reason);
        } else if (remaining > 0) {
            notes.add(new Note(EventKind.NOTHING_TO_START, remaining + " more instances are needed but none is "
                    + "stopped and the provider cannot create instances"));
        }
    }

    /**
     * The stopped instances hpcscale may start, by node name: not those whose node an administrator holds offline,
     * which stay as the administrator left them (said once per cycle in a note).
     */
    List<Instance> startable() {
        List<Instance> startable = new ArrayList<>();
        List<String> held = new ArrayList<>();
        for (Instance instance : sortedByNode(stopped)) {
            if (heldByAdministrator(instance)) {
                held.add(nodeOf(instance));
            } else {
                startable.add(instance);
            }
        }
        if (!held.isEmpty()) {
            notes.add(new Note(EventKind.HELD_BY_ADMINISTRATOR, Words.count(held.size(), "stopped instance")
                    + (held.size() == 1 ? " is" : " are") + " not started: an administrator holds "
                    + (held.size() == 1 ? "its node" : "their nodes") + " offline (" + String.join(", ", held)
                    + "); hpcscale leaves them alone until the mark is cleared"));
        }
        return startable;
    }

    /** An administrator (not hpcscale) holds the instance's node offline: hpcscale never acts on it. */
    boolean heldByAdministrator(Instance instance) {
        VmDocument vm = vmOf(instance);
        return vm != null && vm.heldByAdministrator();
    }

    /**
     * Withdraws drains whose node is needed again, and stops instances whose drain is complete; drains already
     * withdrawn, whose instance starts this cycle, whose instance is being removed at its node's request, or whose
     * instance still boots (a failed boot's) are left alone.
     */
    void handleDrains(Demand demand) {
        Set<String> leftAlone = starts.stream().map(st -> NodeNames.key(st.instance().nodeName()))
                .collect(Collectors.toSet());
        cancels.forEach(c -> leftAlone.add(NodeNames.key(c.node())));
        leftAlone.addAll(leaving);
        // A booting instance's drain is its failed boot's: stopFailedBoots owns it until the node reports in.
        booting.forEach(b -> leftAlone.add(NodeNames.key(b.nodeName())));
        stops.forEach(stop -> leftAlone.add(NodeNames.key(stop.instance().nodeName())));
        for (DrainDocument drain : sortedDrains()) {
            Instance instance = s.instances().byNode(drain.name()).orElse(null);
            if (instance == null) {
                cancels.add(new CancelDrain(drain.name(), "no instance has this node any more"));
                continue;
            }
            if (!instance.state().active() || leftAlone.contains(NodeNames.key(drain.name()))) {
                continue;
            }
            VmDocument vm = vmsByNode.get(NodeNames.key(drain.name()));
            if (demand.drainsToCancel().contains(drain.name())) {
                cancels.add(new CancelDrain(drain.name(), "queued jobs need it again"));
            } else if (StopGuard.refusal(StopKind.DRAINED, vm, drain).isEmpty()) {
                stops.add(new Stop(instance, drain.name(), vm.poolName(), "drained: offline and running no job "
                        + "since the agent's read at " + vm.seenAt() + ", after the drain request of "
                        + drain.requestedAt(), StopKind.DRAINED));
            } else if (DrainHandshake.acknowledged(drain, vm) && !vm.jobIds().isEmpty()) {
                notes.add(new Note(EventKind.WAITING_FOR_JOBS, "node " + drain.name() + " is drained but still "
                        + "runs " + String.join(", ", vm.jobIds()) + "; it is stopped once that ends"));
            }
        }
    }

    void withdrawDrainsOfVanishedInstances() {
        for (DrainDocument drain : sortedDrains()) {
            if (s.instances().byNode(drain.name()).isEmpty()) {
                cancels.add(new CancelDrain(drain.name(), "no instance has this node any more"));
            }
        }
    }

    /** Asks idle nodes to drain, longest idle first, keeping the pool at its min. */
    private void requestDrains(Demand demand, int active) {
        Set<String> draining = new HashSet<>();
        for (Instance instance : running) {
            if (drained(instance)) {
                draining.add(NodeNames.key(instance.nodeName()));
            }
        }
        cancels.forEach(c -> draining.remove(NodeNames.key(c.node())));
        // Failed boots being stopped are already out of active: stopFailedBoots took them out of booting.
        int staying = active - draining.size();
        int room = Math.min(staying - pool.min(), pool.maxStopPerCycle());
        if (room <= 0) {
            return;
        }
        List<Candidate> candidates = new ArrayList<>();
        for (Instance instance : running) {
            VmDocument vm = inService(instance);
            // A node the scheduler cannot reach may run anything: its idle time means nothing.
            if (vm == null || drained(instance) || !vm.idle() || demand.nodesInUse().contains(vm.name())
                    || vm.lastBusyAt() == null) {
                continue;
            }
            Duration idle = Duration.between(vm.lastBusyAt(), now);
            if (idle.compareTo(pool.idleTimeout()) >= 0) {
                candidates.add(new Candidate(instance, idle));
            }
        }
        candidates.sort(Comparator.comparing(Candidate::idle).reversed()
                .thenComparing(c -> c.instance().nodeName()));
        for (Candidate candidate : candidates.subList(0, Math.min(room, candidates.size()))) {
            drains.add(new DrainRequest(candidate.instance(), nodeOf(candidate.instance()), "idle for "
                    + Durations.human(candidate.idle())
                    + " (idle timeout " + Durations.format(pool.idleTimeout())
                    + "), not needed by " + Words.count(demand.jobsConsidered(), "queued job")));
        }
    }

    /**
     * Slurm's power saving decides which nodes run: start the instances of nodes it resumes (within max, backoff
     * and the step limit), stop those it suspends once {@link StopGuard} allows it.
     */
    private void followPowerRequests(int active, boolean fresh) {
        int startsLeft = Math.min(pool.max() - active, pool.maxStartPerCycle());
        List<PowerDocument> requests = s.powerRequests().stream()
                .sorted(Comparator.comparing(PowerDocument::requestedAt).thenComparing(PowerDocument::name))
                .toList();
        for (PowerDocument request : requests) {
            Instance instance = s.instances().byNode(request.name()).orElse(null);
            if (instance == null) {
                powerDone.add(new Plan.PowerDone(request.name(), "no instance has this node"));
            } else if (request.action() == PowerDocument.Action.resume) {
                if (resume(request, instance, startsLeft > 0)) {
                    startsLeft--;
                }
            } else if (!instance.state().active()) {
                powerDone.add(new Plan.PowerDone(request.name(), "its instance is already stopped"));
            } else if (fresh) {
                Optional<String> refusal = StopGuard.refusal(StopKind.POWER_SAVING,
                        vmsByNode.get(NodeNames.key(request.name())), null);
                if (refusal.isEmpty()) {
                    stops.add(new Stop(instance, request.name(), nodePoolOf(instance), "Slurm's power saving "
                            + "suspends " + request.name() + ", which runs no job", StopKind.POWER_SAVING));
                } else {
                    notes.add(new Note(EventKind.WAITING_FOR_JOBS, "Slurm asks to suspend " + request.name()
                            + " but " + refusal.get() + "; it waits"));
                }
            }
        }
    }

    /** @return whether it plans a start */
    private boolean resume(PowerDocument request, Instance instance, boolean room) {
        if (instance.state().active()) {
            powerDone.add(new Plan.PowerDone(request.name(), "its instance is already "
                    + instance.state().name().toLowerCase(Locale.ROOT)));
        } else if (instance.state() == PowerState.STOPPED) {
            if (heldByAdministrator(instance)) {
                notes.add(new Note(EventKind.HELD_BY_ADMINISTRATOR, "Slurm asks to resume " + request.name()
                        + " but an administrator holds it offline: hpcscale leaves it alone"));
            } else if (memory.inBackoff(now)) {
                notes.add(new Note(EventKind.BACKOFF, "in backoff until " + memory.backoffUntil() + " ("
                        + memory.backoffReason() + "): Slurm's resume of " + request.name() + " waits"));
            } else if (!room) {
                notes.add(new Note(EventKind.AT_MAX, "Slurm asks to resume " + request.name()
                        + " but the pool is at its max of " + pool.max() + " or its step limit"));
            } else {
                starts.add(new Start(instance, request.name(), "Slurm's power saving resumes " + request.name()
                        + " for its jobs", drained(instance), true));
                return true;
            }
        }
        return false;
    }

    List<DrainDocument> sortedDrains() {
        return s.drains().stream().sorted(Comparator.comparing(DrainDocument::name)).toList();
    }

    private record Candidate(Instance instance, Duration idle) {
    }

    static List<Instance> sortedByNode(List<Instance> instances) {
        return instances.stream().sorted(Comparator.comparing(Instance::nodeName)).toList();
    }
}
