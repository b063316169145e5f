package io.hpcscale.scaler.plan;

import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.plan.Plan.Create;
import io.hpcscale.scaler.plan.Plan.Start;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How a pool grows, whatever decided it should ({@link ScaleUp}, {@link KeepFixedTarget}): stopped instances start,
 * hibernated ones first, by node name, before new ones are created; the pool's max, its per-cycle step and backoff
 * bound it, and a protected pool ({@link ProtectedPool}) starts one probe instance at most, when it is due and nothing
 * boots. A stopped instance whose node an administrator holds offline is never started.
 */
final class Growth {
    private Growth() {
    }

    /**
     * Starts stopped instances, then creates, up to {@code wanted} within max, the per-cycle step and backoff; what
     * earlier decisions of the cycle start or create counts against all three.
     *
     * @param active the instances that count against the max now, without this cycle's starts
     */
    static void startOrCreate(PoolView view, PlanDraft draft, int wanted, int active, String reason) {
        var memory = view.memory();
        String fallback = view.state().fallback();
        if (memory.inBackoff(view.now())) {
            draft.note(EventKind.BACKOFF, "in backoff until " + memory.backoffUntil() + " ("
                    + memory.backoffReason() + "): " + wanted + " instances not started"
                    + (fallback == null ? "" : "; their jobs are offered to pool " + fallback));
            return;
        }
        int planned = draft.startsPlanned();
        int count = Math.min(Math.min(wanted, view.pool().max() - active - planned),
                view.pool().maxStartPerCycle() - planned);
        String why = reason;
        int allowed = ProtectedPool.allowedStarts(view, draft);
        if (allowed == 0) {
            draft.note(EventKind.PROTECTED, ProtectedPool.refusal(view, draft) + (fallback == null ? ""
                    : "; its jobs are offered to pool " + fallback));
            return;
        }
        if (allowed == 1) {
            count = Math.min(count, 1);
            why = "probe of a protected pool (" + reason + ")";
        }
        List<Instance> candidates = startable(view, draft);
        int started = 0;
        for (; started < count && started < candidates.size(); started++) {
            Instance instance = candidates.get(started);
            draft.add(new Start(instance, view.nodeOf(instance), view.nodePoolOf(instance), why,
                    view.drained(instance), false));
        }
        int remaining = count - started;
        if (remaining > 0 && view.state().canCreate()) {
            draft.add(new Create(remaining, why));
        } else if (remaining > 0) {
            draft.note(EventKind.NOTHING_TO_START, remaining + " more instances are needed but none is stopped and "
                    + "the provider cannot create instances");
        }
    }

    /**
     * A hibernated instance resumes sooner than another boots, so it goes first. One whose last start failed goes
     * last: a resume Azure could not place ({@code OverconstrainedResumeFromHibernatedStateAllocationRequest}: the
     * hibernated VM's own constraints, not the pool's capacity) is tried again after every other stopped instance.
     */
    private static int startOrder(Instance instance) {
        if (instance.failure() != null) {
            return 2;
        }
        return instance.hibernated() ? 0 : 1;
    }

    /**
     * The stopped instances hpcscale may start, in {@link #startOrder}, each kind by node name: those
     * {@link StartGuard} allows (not those whose node an administrator holds offline, which stay as the administrator
     * left them: said once per cycle in a note).
     */
    private static List<Instance> startable(PoolView view, PlanDraft draft) {
        List<Instance> startable = new ArrayList<>();
        List<String> held = new ArrayList<>();
        Set<Instance> starting = draft.planned(Start.class).stream().map(Start::instance).collect(Collectors.toSet());
        for (Instance instance : view.stopped()) {
            if (starting.contains(instance)) {
                continue;
            }
            if (StartGuard.refusal(view.vmOf(instance)).isPresent()) {
                held.add(view.nodeOf(instance));
            } else {
                startable.add(instance);
            }
        }
        if (!held.isEmpty()) {
            draft.note(EventKind.HELD_BY_ADMINISTRATOR, Words.count(held.size(), "stopped instance")
                    + (held.size() == 1 ? " is" : " are") + " not started: an administrator holds "
                    + (held.size() == 1 ? "its node" : "their nodes") + " offline (" + String.join(", ", held)
                    + "); hpcscale leaves them alone until the mark is cleared");
        }
        startable.sort(Comparator.comparingInt(Growth::startOrder));
        return startable;
    }
}
