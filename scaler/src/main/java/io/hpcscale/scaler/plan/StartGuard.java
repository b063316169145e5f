package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.VmDocument;
import java.util.Optional;

/**
 * Whether a stopped instance may be started on the facts at hand: not while an administrator holds its node
 * offline, since the node stays as the administrator left it. Asked when the plan is made and again, like
 * {@link StopGuard}, on a fresh read of the node's document just before the call: an administrator who marks a node
 * between the agent's read and the scaler's call would otherwise see it started.
 */
public final class StartGuard {
    private StartGuard() {
    }

    /**
     * @param vm the node's document, or null if the agent does not report the node
     * @return why the instance must not be started, or empty when it may
     */
    public static Optional<String> refusal(VmDocument vm) {
        if (vm != null && vm.heldByAdministrator()) {
            return Optional.of("an administrator holds its node " + vm.name() + " offline (" + vm.schedulerState()
                    + "): hpcscale leaves it as it is");
        }
        return Optional.empty();
    }
}
