package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.StopKind;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.plan.Plan.CancelDrain;
import io.hpcscale.scaler.plan.Plan.DrainRequest;
import io.hpcscale.scaler.plan.Plan.Note;
import io.hpcscale.scaler.plan.Plan.Stop;
import io.hpcscale.scaler.pool.FixedTarget;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A pool of {@code target = fixed}: it keeps the count it is given (a render manager's "I want N nodes"), whatever the
 * jobs, between its min and max.
 *
 * <ul>
 *   <li>A target that cannot be read, is not set or is not a count is not zero: nothing is started or stopped.</li>
 *   <li>Below the target: drains are withdrawn first, then stopped (evicted) instances start, then new ones are
 *       created, within max, the step limit and backoff; deleted (evicted) instances are replaced that way.</li>
 *   <li>Above it, with an agent reporting: the surplus is drained, idle nodes first (longest idle first), then busy
 *       ones, which finish their jobs; a drained node is stopped only when {@link StopGuard} allows it.</li>
 *   <li>Above it with no agent: hpcscale cannot see jobs, so {@code shrink = lazy} stops nothing, and
 *       {@code idle-first} stops only instances still booting, newest first, never a running one.</li>
 * </ul>
 */
final class FixedTargetPlanning {
    private final Planning p;
    private final PoolConfig pool;
    private final boolean fresh;

    FixedTargetPlanning(Planning planning, boolean fresh) {
        this.p = planning;
        this.pool = planning.pool;
        this.fresh = fresh;
    }

    void plan(int active) {
        TargetReading target = p.s.target();
        if (target == null || !target.known()) {
            p.notes.add(new Note(EventKind.TARGET_UNKNOWN, (target == null ? "the pool's target was not read"
                    : target.unknownBecause()) + ": nothing is started or stopped until it can be read"));
            p.withdrawDrainsOfVanishedInstances();
            return;
        }
        int wanted = bounded(target);
        Set<String> draining = drainingNodes();
        int staying = active - draining.size();
        String why = "the pool's target is " + wanted + " (" + target.source() + ") and "
                + Words.count(staying, "instance") + " " + (staying == 1 ? "is" : "are") + " active";
        if (staying < wanted) {
            staying += withdrawDrains(draining, wanted - staying, why);
            if (staying < wanted) {
                p.startOrCreate(wanted - staying, active, why);
            }
        } else if (staying > wanted) {
            shrink(staying - wanted, why);
        }
        keepDrains();
    }

    /**
     * The count read, less the removals taken on that it does not reflect yet (this cycle's included), within min
     * and max; a count beyond max is said once per cycle. A removal below min deletes the instance, and min has it
     * replaced.
     */
    private int bounded(TargetReading target) {
        int count = Math.max(0, p.memory.countLessUnwrittenRemovals(target.count()) - p.acceptances.size());
        if (count > pool.max()) {
            p.notes.add(new Note(EventKind.AT_MAX, target.source() + " asks for " + count + " instances, more than "
                    + "the pool's max of " + pool.max() + ": keeping " + pool.max() + " (raise pool." + pool.name()
                    + ".max to allow more)"));
            return pool.max();
        }
        return Math.max(count, pool.min());
    }

    private Set<String> drainingNodes() {
        Set<String> draining = new HashSet<>();
        for (Instance instance : p.running) {
            if (p.drained(instance)) {
                draining.add(NodeNames.key(instance.nodeName()));
            }
        }
        return draining;
    }

    /** Withdraws up to {@code count} drains, most recently asked first: those nodes are the likeliest still busy. */
    private int withdrawDrains(Set<String> draining, int count, String why) {
        List<DrainDocument> drains = p.sortedDrains().stream()
                .filter(d -> draining.contains(NodeNames.key(d.name())))
                .sorted(Comparator.comparing(DrainDocument::requestedAt, Comparator.nullsFirst(Comparator
                        .<Instant>naturalOrder())).reversed())
                .toList();
        int withdrawn = 0;
        for (DrainDocument drain : drains.subList(0, Math.min(count, drains.size()))) {
            p.cancels.add(new CancelDrain(drain.name(), "needed again: " + why));
            withdrawn++;
        }
        return withdrawn;
    }

    private void shrink(int surplus, String why) {
        if (!p.agentless()) {
            if (fresh) {
                drainSurplus(surplus, why);
            }
            return;
        }
        if (pool.fixedTarget().shrink() == FixedTarget.Shrink.LAZY) {
            p.notes.add(new Note(EventKind.ABOVE_TARGET, Words.count(surplus, "instance") + " above the target ("
                    + why + "): no agent shows which run jobs, so they are left to evictions and nodes that remove "
                    + "themselves (shrink = lazy)"));
            return;
        }
        stopBootingSurplus(surplus, why);
    }

    /**
     * Idle nodes first, longest idle first; then busy ones, fewest jobs first, which drain as their jobs end. Busy
     * nodes are drained only for the surplus that instances still booting will not make up: a booting instance
     * becomes an idle node, drained then, rather than a busy node being drained for it now.
     */
    private void drainSurplus(int surplus, String why) {
        List<Instance> idle = new ArrayList<>();
        List<Instance> busy = new ArrayList<>();
        for (Instance instance : p.running) {
            VmDocument vm = p.inService(instance);
            if (vm == null || p.drained(instance)) {
                continue;
            }
            (vm.idle() && vm.cpusUsed() == 0 ? idle : busy).add(instance);
        }
        idle.sort(Comparator.comparing((Instance i) -> p.vmOf(i).lastBusyAt(),
                Comparator.nullsFirst(Comparator.<Instant>naturalOrder())).thenComparing(Instance::nodeName));
        busy.sort(Comparator.comparing((Instance i) -> p.vmOf(i).jobIds().size()).thenComparing(Instance::nodeName));
        List<Instance> order = new ArrayList<>(idle);
        int busyToDrain = Math.max(0, surplus - idle.size() - p.booting.size());
        order.addAll(busy.subList(0, Math.min(busyToDrain, busy.size())));
        int count = Math.min(Math.min(surplus, pool.maxStopPerCycle()), order.size());
        for (Instance instance : order.subList(0, count)) {
            VmDocument vm = p.vmOf(instance);
            String state = vm.idle() && vm.cpusUsed() == 0
                    ? "idle" + (vm.lastBusyAt() == null ? "" : " for "
                            + Durations.human(Duration.between(vm.lastBusyAt(), p.now)))
                    : "running " + Words.count(vm.jobIds().size(), "job") + ", stopped once they end";
            p.drains.add(new DrainRequest(instance, p.nodeOf(instance), "above the target, " + state + ": " + why));
        }
    }

    /** Instances still booting, newest first: no agent, so no running instance is ever chosen. */
    private void stopBootingSurplus(int surplus, String why) {
        List<Instance> booting = new ArrayList<>(p.booting);
        booting.sort(Comparator.comparing((Instance i) -> bootingSince(i),
                Comparator.nullsLast(Comparator.<Instant>naturalOrder())).reversed()
                .thenComparing(Instance::nodeName));
        int count = Math.min(Math.min(surplus, pool.maxStopPerCycle()), booting.size());
        for (Instance instance : booting.subList(0, count)) {
            if (StopGuard.refusal(StopKind.SURPLUS, p.vmOf(instance), null).isPresent()) {
                continue;
            }
            p.booting.remove(instance);
            p.stops.add(new Stop(instance, p.nodeOf(instance), p.nodePoolOf(instance), "above the target and "
                    + "still booting (shrink = idle-first): " + why, StopKind.SURPLUS));
        }
        if (surplus > count) {
            p.notes.add(new Note(EventKind.ABOVE_TARGET, Words.count(surplus - count, "running instance")
                    + " above the target (" + why + ") left to evictions and nodes that remove themselves: no agent "
                    + "shows which run jobs"));
        }
    }

    private Instant bootingSince(Instance instance) {
        return p.memory.bootingSince(instance.id());
    }

    /** Completed drains are stopped and vanished instances' drains withdrawn, as in any pool. */
    private void keepDrains() {
        if (fresh) {
            p.handleDrains(Demand.none());
        } else {
            p.withdrawDrainsOfVanishedInstances();
        }
    }
}
