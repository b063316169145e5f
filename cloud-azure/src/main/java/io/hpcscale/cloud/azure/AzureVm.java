package io.hpcscale.cloud.azure;

import io.hpcscale.scaler.cloud.PowerState;
import java.util.Locale;
import java.util.Map;

/**
 * One VM of a scale set as a listing shows it.
 *
 * @param vmName       its resource name, the provider's instance id ({@code vmss_3}, {@code vmss_1a2b3c4d})
 * @param instanceId   what scale-set calls name it by: Uniform {@code 3}; Flexible, the VM name
 * @param computerName its OS host name, null if the listing does not show one
 * @param powerCode    the {@code PowerState/} code of its instance view ({@code running}, {@code deallocated}),
 *                     null if it has none yet
 * @param provisioning its provisioning state ({@code Succeeded}, {@code Creating}, {@code Deleting}, ...)
 * @param failure      the {@code ProvisioningState/failed/<code>} of its instance view with its message, or null
 * @param hibernated   its instance view says {@code HibernationState/Hibernated}
 */
public record AzureVm(String vmName, String instanceId, String computerName, Map<String, String> tags,
        String powerCode, String provisioning, String failure, boolean hibernated) {

    public AzureVm {
        tags = tags == null ? Map.of() : Map.copyOf(tags);
    }

    /**
     * Its power state as the planner counts it, from the states a real listing shows:
     * a VM being deleted is on its way down whatever its power state ({@code deleting} with {@code deallocated} must
     * never be started); {@code PowerState/unknown} is unknown, not starting; a VM whose provisioning failed before
     * it had a power state is failed, not booting; one being created without a power state yet is starting.
     */
    public PowerState state() {
        if ("Deleting".equalsIgnoreCase(provisioning)) {
            return PowerState.STOPPING;
        }
        if (powerCode == null) {
            return failure != null || "Failed".equalsIgnoreCase(provisioning) ? PowerState.FAILED
                    : PowerState.STARTING;
        }
        return switch (powerCode.toLowerCase(Locale.ROOT)) {
            case "running" -> PowerState.RUNNING;
            case "starting" -> PowerState.STARTING;
            case "stopping", "deallocating" -> PowerState.STOPPING;
            case "stopped", "deallocated" -> PowerState.STOPPED;
            default -> PowerState.UNKNOWN;
        };
    }

    /** The failure's code ({@code OSProvisioningTimedOut}, {@code AllocationFailed}), or null. */
    public String failureCode() {
        if (failure == null) {
            return null;
        }
        int colon = failure.indexOf(": ");
        return colon < 0 ? failure : failure.substring(0, colon);
    }

    /** What Azure said of the failure beyond its code, or null. */
    public String failureMessage() {
        int colon = failure == null ? -1 : failure.indexOf(": ");
        return colon < 0 ? null : failure.substring(colon + 2);
    }
}
