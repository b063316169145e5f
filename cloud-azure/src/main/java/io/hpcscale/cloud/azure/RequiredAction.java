package io.hpcscale.cloud.azure;

import io.hpcscale.scaler.pool.StopAction;
import java.util.ArrayList;
import java.util.List;

/**
 * One Azure RBAC action the scaler's requests for a pool need, where Azure checks it, and what it is for. The list
 * follows the requests the provider sends (see the drivers); docs/security.md's role is the union over every setting.
 *
 * @param onResourceGroup checked on the resource group rather than the scale set: a Flexible scale set's VMs are
 *                        resources of the group, listed with a call on the group
 */
record RequiredAction(String action, boolean onResourceGroup, String purpose) {
    private static final String SCALE_SET = "Microsoft.Compute/virtualMachineScaleSets/";
    private static final String VM = "Microsoft.Compute/virtualMachines/";
    private static final String STANDBY_POOL = "Microsoft.StandbyPool/standbyVirtualMachinePools/";

    /**
     * The actions a pool needs with its scale set's mode, its stop action, whether it may grow the set, and whether
     * nodes may ask to be removed (a removal queue is configured).
     */
    static List<RequiredAction> forPool(AzurePoolSettings pool, boolean flexible, StopAction stop,
            boolean removalQueue) {
        String p = "pool." + pool.pool() + ".";
        List<RequiredAction> actions = new ArrayList<>();
        actions.add(new RequiredAction(SCALE_SET + "read", false,
                "to read the scale set's mode, VM size and capacity"));
        String stopPurpose = "to stop idle instances (" + p + "stopAction = " + stop.setting() + ")";
        if (flexible) {
            actions.add(new RequiredAction(VM + "read", true, "to list the scale set's VMs with their power state"));
            actions.add(new RequiredAction(VM + "start/action", true, "to start stopped VMs"));
            actions.add(switch (stop) {
                case DEALLOCATE, HIBERNATE -> new RequiredAction(VM + "deallocate/action", true, stopPurpose);
                case POWER_OFF -> new RequiredAction(VM + "powerOff/action", true, stopPurpose);
                case DELETE -> new RequiredAction(SCALE_SET + "delete/action", false, stopPurpose);
            });
        } else {
            actions.add(new RequiredAction(SCALE_SET + "virtualMachines/read", false,
                    "to list the instances with their power state"));
            actions.add(new RequiredAction(SCALE_SET + "start/action", false, "to start stopped instances"));
            actions.add(new RequiredAction(SCALE_SET + switch (stop) {
                case DEALLOCATE, HIBERNATE -> "deallocate/action";
                case POWER_OFF -> "powerOff/action";
                case DELETE -> "delete/action";
            }, false, stopPurpose));
        }
        if (removalQueue && stop != StopAction.DELETE) {
            actions.add(new RequiredAction(SCALE_SET + "delete/action", false, "to delete instances whose node asked "
                    + "to be removed (azure.removalQueue.*), whatever " + p + "stopAction says"));
        }
        if (pool.vmsPerScaleSet() > 0) {
            String spread = " (" + p + "azure.vmsPerScaleSet)";
            actions.add(new RequiredAction(SCALE_SET + "read", true, "to find the pool's other scale sets" + spread));
            actions.add(new RequiredAction(SCALE_SET + "write", true, "to deploy new scale sets from "
                    + p + "azure.template" + spread + "; the role in docs/security.md leaves it out: add it"));
            actions.add(new RequiredAction("Microsoft.Resources/deployments/write", true, "to deploy "
                    + p + "azure.template" + spread + "; the role in docs/security.md leaves it out: add it"));
            actions.add(new RequiredAction("Microsoft.Resources/deployments/read", true, "to follow a deployment of "
                    + p + "azure.template to its end" + spread));
            actions.add(new RequiredAction("Microsoft.Resources/deployments/validate/action", true, "for check to "
                    + "validate " + p + "azure.template" + spread));
            actions.add(new RequiredAction(SCALE_SET + "delete", true, "to delete a sealed scale set once empty"
                    + spread + "; the role in docs/security.md leaves it out: add it"));
            actions.add(new RequiredAction("Microsoft.Resources/tags/write", false, "to seal a scale set, and mark a "
                    + "new one as the pool's, with a tag"));
            if (stop != StopAction.DELETE && !removalQueue) {
                actions.add(new RequiredAction(SCALE_SET + "delete/action", false, "to delete the stopped "
                        + "instances of a sealed scale set" + spread));
            }
        }
        if (pool.targetTag() != null) {
            actions.add(new RequiredAction("Microsoft.Resources/tags/read", true, "to read the pool's count from the "
                    + "resource group's tag " + pool.targetTag() + " (" + p + "target = fixed)"));
            actions.add(new RequiredAction("Microsoft.Resources/tags/write", true, "to lower that count by one when "
                    + "a node removes itself; the role in docs/security.md leaves it out: add it for fixed pools"));
        }
        if (pool.standbyPool() != null) {
            String standby = " (" + p + "azure.standbyPool)";
            actions.add(new RequiredAction(STANDBY_POOL + "read", true, "to see that the standby pool is as configured"
                    + standby + "; the role in docs/security.md leaves it out: add it"));
            actions.add(new RequiredAction(STANDBY_POOL + "runtimeViews/read", true, "to read the standby pool's "
                    + "health and VMs" + standby + "; the role in docs/security.md leaves it out: add it"));
            actions.add(new RequiredAction(STANDBY_POOL + "write", true, "to create the standby pool or set it back"
                    + standby + "; the role in docs/security.md leaves it out: add it"));
        }
        if (pool.allowCreate()) {
            actions.add(new RequiredAction(SCALE_SET + "write", false, "to raise the scale set's capacity ("
                    + p + "azure.allowCreate = true); the role in docs/security.md leaves it out: add it"));
        }
        return actions;
    }
}
