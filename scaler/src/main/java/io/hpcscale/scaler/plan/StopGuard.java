package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.StopKind;
import io.hpcscale.common.model.VmDocument;
import java.util.Optional;

/**
 * Whether an instance may be stopped on the facts at hand. It is the one rule: the planner decides stops by it from
 * the cycle's read, and the scaler asks it again on a fresh read of the node and its drain request just before the
 * call, so a decision is never carried out after the facts changed.
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
        return switch (kind) {
            case DRAINED -> drained(vm, drain);
            case BOOT_FAILURE -> failedBoot(vm);
            case POWER_SAVING -> suspended(vm);
            case SURPLUS -> unreported(vm);
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
        return Optional.empty();
    }

    /**
     * A node the scheduler lists a job on is never stopped as a failed boot, even if it looks down: only the
     * scheduler can say the job does not run there, and it requeues the job when it gives up on the node.
     */
    private static Optional<String> failedBoot(VmDocument vm) {
        if (vm == null) {
            return Optional.empty();
        }
        if (!vm.idle()) {
            return Optional.of("the scheduler lists a job on its node");
        }
        if (!vm.down()) {
            return Optional.of("its node reported to the scheduler");
        }
        return Optional.empty();
    }

    /**
     * Only an instance whose node no agent reports is stopped as surplus of a fixed target: a reported node may run
     * jobs, and is drained instead.
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
