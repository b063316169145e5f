package io.hpcscale.cloud.azure;

import java.util.List;

/**
 * The requests one orchestration mode needs: a listing with power states in one paged call, and start, stop and
 * delete for many instances. Errors are the SDK's runtime exceptions; {@link ArmErrors} words them.
 */
interface ScaleSetDriver {
    ArmListing.Result list();

    /** Makes the call for every VM, recording in {@code outcomes} each one that failed or did not finish. */
    void call(PowerCall call, List<AzureVm> vms, CallOutcomes outcomes) throws InterruptedException;
}
