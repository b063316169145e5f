package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.scaler.documents.StopKind;
import java.util.Optional;

/**
 * Whether an instance may be stopped on the facts at hand. It is the one rule: the planner decides stops by it from
 * the cycle's read, and the scaler asks it again on a fresh read of the node and its drain request just before the
 * call, so a decision is never carried out after the facts changed. A node's {@code JobIds} name every job the
 * scheduler says holds it, listed on the node or naming it as where it runs (PBS {@code exec_host}): a suspended
 * job keeps its node. A node an administrator holds offline is never stopped, whatever the kind.
 */
public final class StopGuard {
    private StopGuard() {
    }

    /**
     * @param vm    the node's document, or null if the agent does not report the node
     * @param drain the node's drain request, or null
     * @return why the instance must not be stopped, or empty when it may
     */
    public static Optional<String> refusal(StopKind kind, VmDocument vm, DrainDocument drain) {
        if (vm != null && vm.heldByAdministrator()) {
            return Optional.of("an administrator holds its node " + vm.name() + " offline (" + vm.schedulerState()
                    + "): hpcscale leaves it as it is");
        }
        return switch (kind) {
            case DRAINED, UNHEALTHY -> drained(vm, drain);
            case BOOT_FAILURE -> failedBoot(vm, drain);
            case POWER_SAVING -> suspended(vm);
            case SURPLUS, ORPHAN -> unreported(vm);
            // A node asking to be removed may have been given a job since: a reported node goes through the drain,
            // unless the scheduler shows it down with no job (its instance stopped).
            case REMOVED -> vm == null || (vm.down() && vm.idle()) ? Optional.empty() : drained(vm, drain);
            case EVICTED, STOPPED_ELSEWHERE -> Optional.of("hpcscale never plans a stop of kind " + kind
                    + ": it only finds one");
        };
    }

    private static Optional<String> drained(VmDocument vm, DrainDocument drain) {
        if (drain == null) {
            return Optional.of("its drain request is gone");
        }
        if (!DrainHandshake.complete(drain, vm)) {
            return Optional.of("the agent does not show it drained and empty since the drain request");
        }
        if (vm.down()) {
            return Optional.of("the scheduler cannot reach its node (" + vm.schedulerState() + "), so what runs "
                    + "there is unknown; it is stopped once the node reports in and shows no job");
        }
        return Optional.empty();
    }

    /**
     * A failed boot is stopped only once the agent shows its node, still down and with no job, taken out of service
     * since the drain request: "down" alone is no proof that no job can land there, since a node a restarted
     * scheduler showed {@code state-unknown,down} may be back and running a job by the time of the stop. A node the
     * scheduler lists a job on is never stopped as a failed boot: only the scheduler can say the job does not run
     * there, and it requeues the job when it gives up on the node. A node no agent reports can run no job.
     */
    private static Optional<String> failedBoot(VmDocument vm, DrainDocument drain) {
        if (vm == null) {
            return Optional.empty();
        }
        if (!vm.idle()) {
            return Optional.of("the scheduler lists a job on its node");
        }
        if (!vm.down()) {
            return Optional.of("its node reported to the scheduler");
        }
        if (drain == null || !DrainHandshake.acknowledged(drain, vm)) {
            return Optional.of("the agent does not show its node taken out of service since the drain request, so "
                    + "a job could still be placed on it");
        }
        return Optional.empty();
    }

    /**
     * Only an instance whose node no agent reports is stopped as surplus of a fixed target, or as an orphan: a
     * reported node may run jobs, and is drained instead.
     */
    private static Optional<String> unreported(VmDocument vm) {
        return vm == null ? Optional.empty() : Optional.of("an agent reports its node: it is drained instead");
    }

    private static Optional<String> suspended(VmDocument vm) {
        if (vm == null) {
            return Optional.of("the agent does not report its node");
        }
        if (!vm.idle()) {
            return Optional.of("the scheduler lists a job on its node");
        }
        return Optional.empty();
    }
}
