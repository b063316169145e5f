package io.hpcscale.scaler.removal;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Resource Manager id of one scale set VM, as the instance metadata service gives it. A Uniform instance is
 * {@code /subscriptions/<s>/resourceGroups/<rg>/providers/Microsoft.Compute/virtualMachineScaleSets/<ss>/}
 * {@code virtualMachines/<instance id>}; a Flexible one is an ordinary VM,
 * {@code .../providers/Microsoft.Compute/virtualMachines/<vm name>}, whose id does not name its scale set.
 *
 * @param scaleSet the scale set named in the id: Uniform only, null for Flexible
 * @param name     Uniform: the instance id ({@code 3}); Flexible: the VM's name ({@code vmss_1a2b3c4d})
 */
public record VmResourceId(String subscriptionId, String resourceGroup, String scaleSet, String name) {
    // Resource Manager treats names and segment keywords without case; IMDS writes them as below.
    private static final Pattern ID = Pattern.compile("/subscriptions/([^/]+)/resourceGroups/([^/]+)/providers/"
            + "Microsoft\\.Compute/(?:virtualMachineScaleSets/([^/]+)/virtualMachines/([0-9]+)|virtualMachines/"
            + "([^/]+))", Pattern.CASE_INSENSITIVE);

    public VmResourceId {
        if (subscriptionId == null || resourceGroup == null || name == null) {
            throw new IllegalArgumentException("a VM resource id needs a subscription, a resource group and a name");
        }
    }

    /** @throws IllegalArgumentException saying what a scale set VM's id looks like */
    public static VmResourceId parse(String text) {
        Matcher m = ID.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not the id of a scale set VM: expected "
                    + "/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Compute/"
                    + "virtualMachineScaleSets/<scale set>/virtualMachines/<instance id> (Uniform) or "
                    + "/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Compute/virtualMachines/<vm name>"
                    + " (Flexible)");
        }
        return m.group(3) != null ? new VmResourceId(m.group(1), m.group(2), m.group(3), m.group(4))
                : new VmResourceId(m.group(1), m.group(2), null, m.group(5));
    }

    /** True for an instance of a Uniform scale set, false for a VM of a Flexible one. */
    public boolean uniform() {
        return scaleSet != null;
    }

    /** The id as Resource Manager writes it. */
    public String id() {
        String group = "/subscriptions/" + subscriptionId + "/resourceGroups/" + resourceGroup
                + "/providers/Microsoft.Compute/";
        return uniform() ? group + "virtualMachineScaleSets/" + scaleSet + "/virtualMachines/" + name
                : group + "virtualMachines/" + name;
    }

    @Override
    public String toString() {
        return id();
    }
}
