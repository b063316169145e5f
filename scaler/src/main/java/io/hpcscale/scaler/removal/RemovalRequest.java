package io.hpcscale.scaler.removal;

import java.time.Instant;

/**
 * What a removal message asks: delete this scale set VM and lower its pool's target by one. A node sends it about
 * itself ({@code hpcscale-delete-me}); a render manager may send it about any of its nodes.
 *
 * @param vm           the VM, as the instance metadata service gives its id
 * @param scaleSet     the VM's scale set; for a Uniform instance the one its id names (compared without case)
 * @param computerName its OS host name (the scheduler's node name, usually), or null when the sender does not know it
 * @param requestedBy  who sent it, e.g. {@code hpcscale-delete-me 0.1.0 on render0042}
 * @param reason       why, in the sender's words, or null
 */
public record RemovalRequest(VmResourceId vm, String scaleSet, String computerName, Instant requestedAt,
        String requestedBy, String reason) {

    /** @throws IllegalArgumentException naming the part that is missing or does not fit the VM's id */
    public RemovalRequest {
        if (vm == null) {
            throw new IllegalArgumentException("the VM's resource id is missing");
        }
        scaleSet = required(scaleSet, "the scale set's name");
        if (vm.uniform() && !vm.scaleSet().equalsIgnoreCase(scaleSet)) {
            throw new IllegalArgumentException("scale set " + scaleSet + " is not the one the VM's id names ("
                    + vm.scaleSet() + ")");
        }
        if (requestedAt == null) {
            throw new IllegalArgumentException("the time of the request is missing");
        }
        requestedBy = required(requestedBy, "who sent the request");
        computerName = blankToNull(computerName);
        reason = blankToNull(reason);
    }

    private static String required(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(what + " is missing");
        }
        return value.strip();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    public String resourceGroup() {
        return vm.resourceGroup();
    }

    /**
     * The VM's resource name, the azure provider's instance id: Uniform {@code <scale set>_<instance id>}, Flexible the
     * name in its id.
     */
    public String vmName() {
        return vm.uniform() ? vm.scaleSet() + "_" + vm.name() : vm.name();
    }
}
