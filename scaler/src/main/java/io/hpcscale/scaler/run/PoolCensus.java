package io.hpcscale.scaler.run;

import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.StopKind;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.Plan;
import io.hpcscale.scaler.plan.PoolState;
import io.hpcscale.scaler.plan.ProtectedPool;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One pool at the start of a cycle, counted as people look at it: instances by what they do, the queued jobs and
 * the nodes they need. Built from the planner's own view, so {@code status}, the metrics and the plan agree. A
 * running instance whose node no agent reports is booting while its boot is timed, and free after: a pool without
 * an agent (a render farm at a fixed size) has no busy nodes to show.
 *
 * @param instances     by category; empty when the instances are unknown
 * @param queuedJobs    jobs waiting for this pool
 * @param demandedNodes nodes the queued jobs need beyond those running or booting, within max
 * @param target        the pool's fixed target as read this cycle, or null (a demand pool, or unknown)
 * @param backingOff    the pool starts nothing for now (failed boots, capacity, evictions)
 * @param agentReadAt   when an agent serving the pool last read its scheduler successfully, or null
 * @param heldByAdministrator the nodes an administrator holds offline, with their instance's state
 *                      ({@code cn007 (stopped)}): hpcscale neither starts, stops, drains nor returns them
 * @param waitingJobs   jobs of the pool that wait for something other than nodes (a quota, a dependency, a start
 *                      time): more nodes would not start them
 * @param waitingFor    why, for the first {@value #WAITING_SHOWN} of them, as {@code job: what the scheduler says}
 * @param protectedBecause why the pool starts no instance after too many failed boots, and what to do, or null
 * @param orphans       instances hpcscale did not start whose node no agent reports, running longer than
 *                      {@code orphanAfter}: why each is one, and whether it is stopped
 */
public record PoolCensus(Map<InstanceCategory, Integer> instances, boolean instancesKnown, int queuedJobs,
        int demandedNodes, Integer target, boolean backingOff, Instant agentReadAt, List<String> heldByAdministrator,
        int waitingJobs, List<String> waitingFor, String protectedBecause, List<String> orphans) {
    static final int WAITING_SHOWN = 5;

    public PoolCensus {
        heldByAdministrator = List.copyOf(heldByAdministrator);
        waitingFor = List.copyOf(waitingFor);
        orphans = List.copyOf(orphans);
        EnumMap<InstanceCategory, Integer> all = new EnumMap<>(InstanceCategory.class);
        for (InstanceCategory category : InstanceCategory.values()) {
            all.put(category, instances.getOrDefault(category, 0));
        }
        instances = Collections.unmodifiableMap(all);
    }

    public int count(InstanceCategory category) {
        return instances.get(category);
    }

    /** Running or booting: what the cloud bills. */
    public int active() {
        return count(InstanceCategory.BUSY) + count(InstanceCategory.FREE) + count(InstanceCategory.BOOTING)
                + count(InstanceCategory.DRAINING);
    }

    public static PoolCensus of(PoolState state, Plan plan) {
        Integer target = state.target() != null && state.target().known() ? state.target().count() : null;
        boolean backingOff = state.state().backoffUntil() != null && state.state().backoffUntil().isAfter(state.now());
        List<JobDocument> waiting = state.jobs().stream().filter(job -> job.status() == JobState.Waiting).toList();
        List<String> why = waiting.stream().limit(WAITING_SHOWN).map(job -> job.schedulerId()
                + (job.waitingFor() == null ? "" : ": " + job.waitingFor())).toList();
        String protectedBecause = state.state().bootHealth().protectedNow()
                ? ProtectedPool.describe(state.state().bootHealth(), state.pool()) : null;
        List<String> orphans = new ArrayList<>();
        plan.notes().stream().filter(n -> n.kind() == EventKind.ORPHAN).forEach(n -> orphans.add(n.message()));
        plan.stops().stream().filter(stop -> stop.kind() == StopKind.ORPHAN).forEach(stop -> orphans.add(
                stop.reason()));
        if (!state.instances().known()) {
            return new PoolCensus(Map.of(), false, plan.queuedJobs(), 0, target, backingOff, state.agentReadAt(),
                    List.of(), waiting.size(), why, protectedBecause, orphans);
        }
        Map<String, VmDocument> nodes = new HashMap<>();
        state.vms().forEach(vm -> nodes.put(NodeNames.key(vm.name()), vm));
        Set<String> drained = new HashSet<>();
        state.drains().forEach(d -> drained.add(NodeNames.key(d.name())));
        Map<InstanceCategory, Integer> counts = new EnumMap<>(InstanceCategory.class);
        List<String> held = new ArrayList<>();
        for (Instance instance : state.instances().instances()) {
            InstanceRecord record = state.state().instances().get(instance.id());
            VmDocument node = nodes.get(NodeNames.key(instance.nodeName()));
            counts.merge(categoryOf(instance, record, node, drained.contains(NodeNames.key(instance.nodeName()))), 1,
                    Integer::sum);
            if (node != null && node.heldByAdministrator()) {
                held.add(node.name() + " (" + instance.state().name().toLowerCase(Locale.ROOT) + ")");
            }
        }
        held.sort(null);
        return new PoolCensus(counts, true, plan.queuedJobs(), plan.demand().newNodes(), target, backingOff,
                state.agentReadAt(), held, waiting.size(), why, protectedBecause, orphans);
    }

    private static InstanceCategory categoryOf(Instance instance, InstanceRecord record, VmDocument node,
            boolean drainAsked) {
        return switch (instance.state()) {
            case STOPPED -> {
                StopKind kind = record == null ? null : record.stopKind();
                yield kind == StopKind.EVICTED ? InstanceCategory.EVICTED
                        : kind != null && kind.failedBoot() ? InstanceCategory.FAILED
                        : instance.hibernated() ? InstanceCategory.HIBERNATED
                        : InstanceCategory.STOPPED;
            }
            case STOPPING -> InstanceCategory.STOPPING;
            case FAILED -> InstanceCategory.FAILED;
            case UNKNOWN -> InstanceCategory.UNKNOWN;
            case STARTING -> InstanceCategory.BOOTING;
            case RUNNING -> node == null
                    ? (record == null || record.booting() ? InstanceCategory.BOOTING : InstanceCategory.FREE)
                    : drainAsked || node.offlineByHpcscale() ? InstanceCategory.DRAINING
                    : node.jobStatus() == NodeJobStatus.Busy ? InstanceCategory.BUSY
                    : InstanceCategory.FREE;
        };
    }
}
