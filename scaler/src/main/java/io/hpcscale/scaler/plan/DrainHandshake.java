package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.VmDocument;

/**
 * When a drained node may be stopped: its document must come from a scheduler read made after the agent had read
 * this very drain request ({@code DrainRequestedAt} echoes its {@code RequestedAt}), and show the node offline by
 * hpcscale with no job. Offline, the scheduler places no new job on it, and only the agent can return it, which it
 * does only once the drain request is withdrawn. A free flag alone is never enough.
 */
public final class DrainHandshake {
    private DrainHandshake() {
    }

    public static boolean acknowledged(DrainDocument drain, VmDocument vm) {
        return vm != null && drain.requestedAt().equals(vm.drainRequestedAt()) && vm.offline()
                && vm.offlineByHpcscale();
    }

    public static boolean complete(DrainDocument drain, VmDocument vm) {
        return acknowledged(drain, vm) && vm.idle();
    }
}
