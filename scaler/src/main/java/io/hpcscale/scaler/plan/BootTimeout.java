package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.documents.StopKind;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Stops instances whose node has not reported within the boot timeout, and running instances whose node the
 * scheduler has not reached for as long (a VM that hung or died: nothing else would ever stop it, since an
 * unreachable node's idle time means nothing), unless {@link StopGuard} says no. A node the agent reports is first
 * taken out of service (a drain request), so that no job lands on it between the agent's read and the stop. The
 * failed boot is counted once the stop is done. Only with a fresh agent read.
 */
final class BootTimeout implements Decision {

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        Map<Instance, String> failed = new LinkedHashMap<>();
        String timeout = Durations.format(view.pool().bootTimeout());
        for (Instance instance : view.booting()) {
            Instant since = view.memory().bootingSince(instance.id());
            if (since != null && !since.plus(view.pool().bootTimeout()).isAfter(view.now())) {
                failedNode(view, draft, instance, "its node " + instance.nodeName() + " did not report to the "
                        + "scheduler within the boot timeout of " + timeout, failed);
            }
        }
        for (Instance instance : view.running()) {
            VmDocument vm = view.vmOf(instance);
            // The agent writes a node's document when its state changes: SeenAt is when it first saw it down.
            if (vm != null && vm.down() && !vm.heldByAdministrator() && vm.seenAt() != null
                    && !vm.seenAt().plus(view.pool().bootTimeout()).isAfter(view.now())) {
                failedNode(view, draft, instance, "the scheduler has not reached its node " + vm.name() + " since "
                        + vm.seenAt() + ", longer than the boot timeout of " + timeout, failed);
            }
        }
        failed.forEach((instance, reason) -> draft.add(new Plan.Stop(instance, view.nodeOf(instance),
                view.nodePoolOf(instance), reason, StopKind.BOOT_FAILURE)));
    }

    /** A node that failed: stopped when {@link StopGuard} allows it, else taken out of service first, or waited for. */
    private static void failedNode(PoolView view, PlanDraft draft, Instance instance, String why,
            Map<Instance, String> failed) {
        VmDocument vm = view.vmOf(instance);
        DrainDocument drain = view.drainOf(instance);
        Optional<String> refusal = StopGuard.refusal(StopKind.BOOT_FAILURE, vm, drain);
        if (refusal.isEmpty()) {
            failed.put(instance, why);
        } else if (drain == null && vm.idle() && vm.down() && !vm.heldByAdministrator()) {
            draft.add(new Plan.DrainRequest(instance, view.nodeOf(instance), why + ": out of service before its "
                    + "instance is stopped"));
        } else if (!vm.idle()) {
            draft.note(EventKind.WAITING_FOR_JOBS, "instance " + instance.id() + ": " + why + ", but "
                    + refusal.get() + " (" + String.join(", ", vm.jobIds()) + " on " + vm.name() + "); it is "
                    + "stopped only once no job is listed there");
        }
    }
}
