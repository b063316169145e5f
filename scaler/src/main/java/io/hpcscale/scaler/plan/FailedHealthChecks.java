package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.documents.StopKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Replaces the instances of a pool that checks its nodes ({@code healthCheck}) whose node failed its check (the check
 * the store holds is the node's current one once the node is up: the node writes it before its scheduler daemon
 * starts), or reported without a check that passed within the boot timeout: the node is drained (the agent holds it
 * out of service already), then stopped once {@link StopGuard} allows it, with the pool's stop action, and counted as
 * a failed boot, towards backoff and protection. Only with a fresh agent read; a job on the node waits for its end.
 */
final class FailedHealthChecks implements Decision {

    @Override
    public void decide(PoolView view, PlanDraft draft) {
        if (!view.pool().healthChecked()) {
            return;
        }
        List<Instance> candidates = new ArrayList<>(view.running());
        candidates.addAll(view.booting());
        for (Instance instance : candidates) {
            VmDocument vm = view.vmOf(instance);
            if (vm == null || vm.down()) {
                continue;
            }
            String why = why(view, instance);
            if (why != null) {
                replace(view, draft, instance, vm, why);
            }
        }
    }

    /** Why the node failed, or null while it has not. */
    private static String why(PoolView view, Instance instance) {
        HealthDocument check = view.state().healthOf(instance.nodeName());
        if (check != null && check.state() == HealthDocument.State.FAILED) {
            return "its node " + instance.nodeName() + " failed its " + check.holdReason().replaceFirst(
                    "^health check failed", "health check");
        }
        Instant since = view.memory().bootingSince(instance.id());
        boolean passed = check != null && check.state() == HealthDocument.State.PASSED;
        if (!passed && since != null && !since.plus(view.pool().bootTimeout()).isAfter(view.now())) {
            return "its node " + instance.nodeName() + " reported, but no health check of it passed within the boot "
                    + "timeout of " + Durations.format(view.pool().bootTimeout()) + (check == null ? " (none was "
                    + "written: is the hpcscale-node service enabled in the image, and does the node's configuration "
                    + "give the pool its healthCheck?)" : " (still running)");
        }
        return null;
    }

    private static void replace(PoolView view, PlanDraft draft, Instance instance, VmDocument vm, String why) {
        DrainDocument drain = view.drainOf(instance);
        Optional<String> refusal = StopGuard.refusal(StopKind.UNHEALTHY, vm, drain);
        if (refusal.isEmpty()) {
            draft.add(new Plan.Stop(instance, view.nodeOf(instance), view.nodePoolOf(instance), why + ": replaced",
                    StopKind.UNHEALTHY));
        } else if (drain == null && !vm.heldByAdministrator()) {
            draft.add(new Plan.DrainRequest(instance, view.nodeOf(instance), why + ": out of service before its "
                    + "instance is replaced"));
        } else if (!vm.idle()) {
            draft.note(EventKind.WAITING_FOR_JOBS, "instance " + instance.id() + ": " + why + ", but "
                    + refusal.get() + " (" + String.join(", ", vm.jobIds()) + " on " + vm.name() + "); it is "
                    + "replaced once no job is listed there");
        }
    }
}
