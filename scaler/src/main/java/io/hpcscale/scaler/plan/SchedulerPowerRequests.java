package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.StopKind;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A pool whose scheduler decides which nodes run (Slurm's power saving: its agent writes the scheduler's resume and
 * suspend requests as power documents): the instances of nodes it resumes start, oldest request first, within max,
 * backoff and the step limit; those it suspends stop once {@link StopGuard} allows it, only with a fresh agent read.
 * A request that needs nothing any more is deleted.
 */
final class SchedulerPowerRequests implements Decision {

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        int startsLeft = Math.min(view.pool().max() - view.active(), view.pool().maxStartPerCycle());
        List<PowerDocument> requests = view.state().powerRequests().stream()
                .sorted(Comparator.comparing(PowerDocument::requestedAt).thenComparing(PowerDocument::name))
                .toList();
        for (PowerDocument request : requests) {
            Instance instance = view.state().instances().byNode(request.name()).orElse(null);
            if (instance == null) {
                draft.add(new Plan.PowerDone(request.name(), "no instance has this node"));
            } else if (request.action() == PowerDocument.Action.resume) {
                if (resume(view, draft, request, instance, startsLeft > 0)) {
                    startsLeft--;
                }
            } else if (!instance.state().active()) {
                draft.add(new Plan.PowerDone(request.name(), "its instance is already stopped"));
            } else if (view.fresh()) {
                suspend(view, draft, request, instance);
            }
        }
    }

    private static void suspend(PoolView view, PlanDraft draft, PowerDocument request, Instance instance) {
        Optional<String> refusal = StopGuard.refusal(StopKind.POWER_SAVING, view.vmOf(request.name()), null);
        if (refusal.isEmpty()) {
            draft.add(new Plan.Stop(instance, request.name(), view.nodePoolOf(instance), "the scheduler asks "
                    + "to suspend " + request.name() + ", which runs no job", StopKind.POWER_SAVING));
        } else {
            draft.note(EventKind.WAITING_FOR_JOBS, "the scheduler asks to suspend " + request.name() + " but "
                    + refusal.get() + "; it waits");
        }
    }

    /** @return whether it plans a start */
    private static boolean resume(PoolView view, PlanDraft draft, PowerDocument request, Instance instance,
            boolean room) {
        var memory = view.memory();
        if (instance.state().active()) {
            draft.add(new Plan.PowerDone(request.name(), "its instance is already "
                    + instance.state().name().toLowerCase(Locale.ROOT)));
        } else if (instance.state() == PowerState.STOPPED) {
            if (StartGuard.refusal(view.vmOf(instance)).isPresent()) {
                draft.note(EventKind.HELD_BY_ADMINISTRATOR, "the scheduler asks to resume " + request.name()
                        + " but an administrator holds it offline: hpcscale leaves it alone");
            } else if (memory.inBackoff(view.now())) {
                draft.note(EventKind.BACKOFF, "in backoff until " + memory.backoffUntil() + " ("
                        + memory.backoffReason() + "): the scheduler's resume of " + request.name() + " waits");
            } else if (ProtectedPool.allowedStarts(view, draft) == 0) {
                draft.note(EventKind.PROTECTED, ProtectedPool.refusal(view, draft) + ": the scheduler's resume of "
                        + request.name() + " waits");
            } else if (!room) {
                draft.note(EventKind.AT_MAX, "the scheduler asks to resume " + request.name()
                        + " but the pool is at its max of " + view.pool().max() + " or its step limit");
            } else {
                draft.add(new Plan.Start(instance, request.name(), view.nodePoolOf(instance), "the scheduler asks "
                        + "to resume " + request.name() + " for its jobs", view.drained(instance), true));
                return true;
            }
        }
        return false;
    }
}
