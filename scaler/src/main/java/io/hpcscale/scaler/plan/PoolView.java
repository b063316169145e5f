package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One pool as this cycle sees it, once the scaler's memory is settled against the listing ({@link PoolObservation})
 * and the instances are sorted by what they are: running, booting, stopped, of unknown power state, or leaving (their
 * node asked for their removal, and they count for nothing else). Immutable: every decision reads the same view, and
 * the planner narrows it ({@link #without}) when a decision takes instances out of play.
 *
 * <p>It owns the two facts every decision leans on: whether a node's room counts ({@link #inService}) and since
 * when a node is idle ({@link #idleFor}).
 *
 * <p>The lists are by node name; {@code leaving} holds node-name keys.
 */
final class PoolView {
    private final PoolState state;
    private final ScalerStateDocument memory;
    private final boolean fresh;
    private final List<Instance> running;
    private final List<Instance> booting;
    private final List<Instance> stopped;
    private final List<Instance> unknown;
    private final Set<String> leaving;
    private final Map<String, VmDocument> vmsByNode;
    private final Map<String, DrainDocument> drainsByNode;

    /** The pool before its instances are sorted: its documents by node, its memory as stored. */
    static PoolView unsorted(PoolState state, boolean fresh) {
        return new PoolView(state, state.state(), fresh, List.of(), List.of(), List.of(), List.of(), Set.of(),
                byNodeKey(state.vms(), VmDocument::name), byNodeKey(state.drains(), DrainDocument::name));
    }

    /**
     * The pool with its instances sorted.
     *
     * @param memory  the scaler's state of the pool as this cycle's observations left it
     * @param running instances up
     * @param booting instances hpcscale started whose node has not reported yet
     * @param stopped stopped instances
     * @param unknown instances whose power state the cloud does not say: never acted on, but counted against max
     * @param leaving node-name keys of instances whose removal was (or is this cycle) taken on
     */
    PoolView sorted(ScalerStateDocument memory, List<Instance> running, List<Instance> booting,
            List<Instance> stopped, List<Instance> unknown, Set<String> leaving) {
        return new PoolView(state, memory, fresh, running, booting, stopped, unknown, leaving, vmsByNode,
                drainsByNode);
    }

    private PoolView(PoolState state, ScalerStateDocument memory, boolean fresh, List<Instance> running,
            List<Instance> booting, List<Instance> stopped, List<Instance> unknown, Set<String> leaving,
            Map<String, VmDocument> vmsByNode, Map<String, DrainDocument> drainsByNode) {
        this.state = state;
        this.memory = memory;
        this.fresh = fresh;
        this.running = List.copyOf(running);
        this.booting = List.copyOf(booting);
        this.stopped = List.copyOf(stopped);
        this.unknown = List.copyOf(unknown);
        this.leaving = Set.copyOf(leaving);
        this.vmsByNode = vmsByNode;
        this.drainsByNode = drainsByNode;
    }

    PoolState state() {
        return state;
    }

    ScalerStateDocument memory() {
        return memory;
    }

    boolean fresh() {
        return fresh;
    }

    List<Instance> running() {
        return running;
    }

    List<Instance> booting() {
        return booting;
    }

    List<Instance> stopped() {
        return stopped;
    }

    Set<String> leaving() {
        return leaving;
    }

    /** Whether an agent read the scheduler for this pool within {@code staleAfter} of the state's moment. */
    static boolean fresh(PoolState state, Duration staleAfter) {
        return state.agentReadAt() != null && !state.agentReadAt().plus(staleAfter).isBefore(state.now());
    }

    /** The same view without these instances: taken out of play this cycle (stopped), they count for nothing. */
    PoolView without(Collection<Instance> takenOut) {
        if (takenOut.isEmpty()) {
            return this;
        }
        return new PoolView(state, memory, fresh, minus(running, takenOut), minus(booting, takenOut),
                minus(stopped, takenOut), minus(unknown, takenOut), leaving, vmsByNode, drainsByNode);
    }

    private static List<Instance> minus(List<Instance> instances, Collection<Instance> takenOut) {
        return instances.stream().filter(i -> !takenOut.contains(i)).toList();
    }

    PoolConfig pool() {
        return state.pool();
    }

    Instant now() {
        return state.now();
    }

    /** The warm nodes the pool keeps now: {@code warm}, or more in a window of {@code warmSchedule}. */
    int warm() {
        return pool().warm().at(now());
    }

    /** The warm nodes kept now, and the window that sets them, for a reason. */
    String warmDescribed() {
        return pool().warm().describeAt(now());
    }

    /** Instances that count against the pool's max: running, booting and those of unknown state. */
    int active() {
        return running.size() + booting.size() + unknown.size();
    }

    /** Active instances whose power state the listing did not say. */
    int unknownCount() {
        return unknown.size();
    }

    /**
     * The active instances counted for the pool's min: all but those hpcscale did not start whose node no agent
     * reports (orphans in the making), which cost as much and count for the max, but on which no job of the pool can
     * land. Instances hpcscale started count whatever their nodes report: a node mapping that does not match would
     * otherwise start more and more of them. Without a fresh read, or while the agent reports nodes of the pool that
     * are no instance of it (the mapping is wrong), every active instance counts.
     */
    int countedForMin() {
        boolean mappingMatches = state.vms().stream().allMatch(vm -> !state.instances().byNode(vm.name()).isEmpty());
        if (!fresh || agentless(state) || !mappingMatches) {
            return active();
        }
        int others = 0;
        for (Instance instance : running) {
            boolean startedByHpcscale = memory.instance(instance.id()).map(InstanceRecord::startedByHpcscale)
                    .orElse(false);
            if (!startedByHpcscale && vmOf(instance) == null && !state.reportedInAnotherPool(instance.nodeName())) {
                others++;
            }
        }
        return active() - others;
    }

    /**
     * A fixed pool that no agent reports and that has no node documents at all: no node will report, so an
     * instance's boot ends when the cloud lists it running, and nothing is known of its jobs. A pool whose agent
     * merely stopped reporting still has its nodes' documents, and is stale instead.
     */
    boolean agentless() {
        return agentless(state);
    }

    static boolean agentless(PoolState state) {
        return state.pool().fixed() && state.agentReadAt() == null && state.vms().isEmpty();
    }

    /** The jobs the pool's demand is made of: queued ones, and held ones where the pool counts them. */
    List<JobDocument> consideredJobs() {
        return considered(state);
    }

    static List<JobDocument> considered(PoolState state) {
        return state.jobs().stream().filter(job -> job.status() == JobState.Queued
                || (state.pool().countHeldJobs() && job.status() == JobState.Hold)).toList();
    }

    VmDocument vmOf(Instance instance) {
        return vmOf(instance.nodeName());
    }

    VmDocument vmOf(String node) {
        return vmsByNode.get(NodeNames.key(node));
    }

    DrainDocument drainOf(Instance instance) {
        return drainsByNode.get(NodeNames.key(instance.nodeName()));
    }

    boolean drained(Instance instance) {
        return drainOf(instance) != null;
    }

    /**
     * The instance's node when it is in service, so that its room counts: reported, up, not held offline by an
     * administrator (a node hpcscale drained is in service until its drain completes), not announced to go
     * ({@link PoolState#noticeOf}: the agent takes it out of service, and a job requeued from it must get a node
     * elsewhere), and not held for a health check that is running or failed; null otherwise.
     */
    VmDocument inService(Instance instance) {
        VmDocument vm = vmOf(instance);
        return vm == null || vm.down() || vm.heldByAdministrator() || state.noticeOf(instance.nodeName()) != null
                || healthHeld(instance) ? null : vm;
    }

    /** The node's health check, of any boot, has not passed: the agent holds it out of service. */
    boolean healthHeld(Instance instance) {
        HealthDocument check = state.healthOf(instance.nodeName());
        return check != null && check.state() != HealthDocument.State.PASSED;
    }

    /**
     * How long the instance's node has been idle, when its idle time means something: it is in service, runs
     * nothing and the agent has seen it busy; empty otherwise (a node the scheduler cannot reach may run anything).
     */
    Optional<Duration> idleFor(Instance instance) {
        VmDocument vm = inService(instance);
        if (vm == null || !vm.idle() || vm.lastBusyAt() == null) {
            return Optional.empty();
        }
        return Optional.of(Duration.between(vm.lastBusyAt(), now()));
    }

    /** The pool in whose partition the agent reports the instance's node: its own, unless it is a fallback. */
    String nodePoolOf(Instance instance) {
        VmDocument vm = vmOf(instance);
        return vm != null ? vm.poolName() : pool().name();
    }

    /** The instance's node as the scheduler spells it: its documents and commands use that name. */
    String nodeOf(Instance instance) {
        VmDocument vm = vmOf(instance);
        if (vm != null) {
            return vm.name();
        }
        DrainDocument drain = drainOf(instance);
        return drain != null ? drain.name() : instance.nodeName();
    }

    /** The listed instance of this id, as the cloud spells ids (any case). */
    Optional<Instance> listed(String instanceId) {
        return state.instances().instances().stream().filter(i -> i.id().equalsIgnoreCase(instanceId)).findFirst();
    }

    List<DrainDocument> sortedDrains() {
        return state.drains().stream().sorted(Comparator.comparing(DrainDocument::name)).toList();
    }

    private static <T> Map<String, T> byNodeKey(List<T> documents, Function<T, String> name) {
        Map<String, T> byKey = new HashMap<>();
        documents.forEach(d -> byKey.put(NodeNames.key(name.apply(d)), d));
        return Map.copyOf(byKey);
    }

    static List<Instance> sortedByNode(Collection<Instance> instances) {
        return instances.stream().sorted(Comparator.comparing(Instance::nodeName)).toList();
    }

    static Set<String> nodeKeys(Collection<Instance> instances) {
        return instances.stream().map(i -> NodeNames.key(i.nodeName())).collect(Collectors.toSet());
    }
}
