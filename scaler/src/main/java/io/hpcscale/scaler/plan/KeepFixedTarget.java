package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.documents.StopKind;
import io.hpcscale.scaler.plan.Plan.CancelDrain;
import io.hpcscale.scaler.plan.Plan.DrainRequest;
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
final class KeepFixedTarget implements Decision {

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        TargetReading target = view.state().target();
        if (target == null || !target.known()) {
            draft.note(EventKind.TARGET_UNKNOWN, (target == null ? "the pool's target was not read"
                    : target.unknownBecause()) + ": nothing is started or stopped until it can be read");
            new VanishedDrains().decide(view, draft);
            return;
        }
        int active = view.active();
        int wanted = bounded(view, draft, target);
        Set<String> draining = drainingNodes(view);
        int staying = active - draining.size();
        String why = "the pool's target is " + wanted + " (" + target.source() + ") and "
                + Words.count(staying, "instance") + " " + (staying == 1 ? "is" : "are") + " active";
        if (staying < wanted) {
            staying += withdrawDrains(view, draft, draining, wanted - staying, why);
            if (staying < wanted) {
                Growth.startOrCreate(view, draft, wanted - staying, active, why);
            }
        } else if (staying > wanted) {
            shrink(view, draft, staying - wanted, why);
        }
        keepDrains(view.without(draft.stopped()), draft);
    }

    /**
     * The count read, less the removals taken on that it does not reflect yet (this cycle's included), within min
     * and max; a count beyond max is said once per cycle. A removal below min deletes the instance, and min has it
     * replaced.
     */
    private static int bounded(PoolView view, PlanDraft draft, TargetReading target) {
        PoolConfig pool = view.pool();
        int count = Math.max(0, view.memory().countLessUnwrittenRemovals(target.count())
                - draft.planned(Plan.Acceptance.class).size());
        if (count > pool.max()) {
            draft.note(EventKind.AT_MAX, target.source() + " asks for " + count + " instances, more than the pool's "
                    + "max of " + pool.max() + ": keeping " + pool.max() + " (raise pool." + pool.name()
                    + ".max to allow more)");
            return pool.max();
        }
        return Math.max(count, pool.min());
    }

    private static Set<String> drainingNodes(PoolView view) {
        Set<String> draining = new HashSet<>();
        for (Instance instance : view.running()) {
            if (view.drained(instance)) {
                draining.add(NodeNames.key(instance.nodeName()));
            }
        }
        return draining;
    }

    /** Withdraws up to {@code count} drains, most recently asked first: those nodes are the likeliest still busy. */
    private static int withdrawDrains(PoolView view, PlanDraft draft, Set<String> draining, int count, String why) {
        List<DrainDocument> drains = view.sortedDrains().stream()
                .filter(d -> draining.contains(NodeNames.key(d.name())))
                .sorted(Comparator.comparing(DrainDocument::requestedAt, Comparator.nullsFirst(Comparator
                        .<Instant>naturalOrder())).reversed())
                .toList();
        int withdrawn = 0;
        for (DrainDocument drain : drains.subList(0, Math.min(count, drains.size()))) {
            draft.add(new CancelDrain(drain.name(), "needed again: " + why));
            withdrawn++;
        }
        return withdrawn;
    }

    private static void shrink(PoolView view, PlanDraft draft, int surplus, String why) {
        if (!view.agentless()) {
            if (view.fresh()) {
                drainSurplus(view, draft, surplus, why);
            }
            return;
        }
        if (view.pool().fixedTarget().shrink() == FixedTarget.Shrink.LAZY) {
            draft.note(EventKind.ABOVE_TARGET, Words.count(surplus, "instance") + " above the target (" + why
                    + "): no agent shows which run jobs, so they are left to evictions and nodes that remove "
                    + "themselves (shrink = lazy)");
            return;
        }
        stopBootingSurplus(view, draft, surplus, why);
    }

    /**
     * Idle nodes first, longest idle first; then busy ones, fewest jobs first, which drain as their jobs end. Busy
     * nodes are drained only for the surplus that instances still booting will not make up: a booting instance
     * becomes an idle node, drained then, rather than a busy node being drained for it now.
     */
    private static void drainSurplus(PoolView view, PlanDraft draft, int surplus, String why) {
        List<Instance> idle = new ArrayList<>();
        List<Instance> busy = new ArrayList<>();
        for (Instance instance : view.running()) {
            VmDocument vm = view.inService(instance);
            if (vm == null || view.drained(instance)) {
                continue;
            }
            (vm.idle() && vm.cpusUsed() == 0 ? idle : busy).add(instance);
        }
        idle.sort(Comparator.comparing((Instance i) -> view.vmOf(i).lastBusyAt(),
                Comparator.nullsFirst(Comparator.<Instant>naturalOrder())).thenComparing(Instance::nodeName));
        busy.sort(Comparator.comparing((Instance i) -> view.vmOf(i).jobIds().size())
                .thenComparing(Instance::nodeName));
        List<Instance> order = new ArrayList<>(idle);
        int busyToDrain = Math.max(0, surplus - idle.size() - view.booting().size());
        order.addAll(busy.subList(0, Math.min(busyToDrain, busy.size())));
        int count = Math.min(Math.min(surplus, view.pool().maxStopPerCycle()), order.size());
        for (Instance instance : order.subList(0, count)) {
            VmDocument vm = view.vmOf(instance);
            String state = vm.idle() && vm.cpusUsed() == 0
                    ? "idle" + (vm.lastBusyAt() == null ? "" : " for "
                            + Durations.human(Duration.between(vm.lastBusyAt(), view.now())))
                    : "running " + Words.count(vm.jobIds().size(), "job") + ", stopped once they end";
            draft.add(new DrainRequest(instance, view.nodeOf(instance), "above the target, " + state + ": " + why));
        }
    }

    /** Instances still booting, newest first: no agent, so no running instance is ever chosen. */
    private static void stopBootingSurplus(PoolView view, PlanDraft draft, int surplus, String why) {
        List<Instance> booting = new ArrayList<>(view.booting());
        booting.sort(Comparator.comparing((Instance i) -> view.memory().bootingSince(i.id()),
                Comparator.nullsLast(Comparator.<Instant>naturalOrder())).reversed()
                .thenComparing(Instance::nodeName));
        int count = Math.min(Math.min(surplus, view.pool().maxStopPerCycle()), booting.size());
        for (Instance instance : booting.subList(0, count)) {
            if (StopGuard.refusal(StopKind.SURPLUS, view.vmOf(instance), null).isPresent()) {
                continue;
            }
            draft.add(new Stop(instance, view.nodeOf(instance), view.nodePoolOf(instance), "above the target and "
                    + "still booting (shrink = idle-first): " + why, StopKind.SURPLUS));
        }
        if (surplus > count) {
            draft.note(EventKind.ABOVE_TARGET, Words.count(surplus - count, "running instance") + " above the "
                    + "target (" + why + ") left to evictions and nodes that remove themselves: no agent shows "
                    + "which run jobs");
        }
    }

    /** Completed drains are stopped and vanished instances' drains withdrawn, as in any pool. */
    private static void keepDrains(PoolView view, PlanDraft draft) {
        if (view.fresh()) {
            new DrainCompletion(Demand.none()).decide(view, draft);
        } else {
            new VanishedDrains().decide(view, draft);
        }
    }
}
