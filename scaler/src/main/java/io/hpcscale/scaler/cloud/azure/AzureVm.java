package io.hpcscale.scaler.cloud.azure;

import io.hpcscale.scaler.cloud.PowerState;
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
 */
public record AzureVm(String vmName, String instanceId, String computerName, Map<String, String> tags,
        String powerCode, String provisioning) {

    public AzureVm {
        tags = tags == null ? Map.of() : Map.copyOf(tags);
    }

    /**
     * Its power state as the planner counts it. Without a power state (being created, or failed before it had one)
     * it counts as starting, which holds a place under the max until its boot timeout, rather than as stopped,
     * which the planner would try to start again.
     */
    public PowerState state() {
        if (powerCode == null) {
            return "Deleting".equalsIgnoreCase(provisioning) ? PowerState.STOPPING : PowerState.STARTING;
        }
        return switch (powerCode.toLowerCase(java.util.Locale.ROOT)) {
            case "running" -> "Deleting".equalsIgnoreCase(provisioning) ? PowerState.STOPPING : PowerState.RUNNING;
            case "starting" -> PowerState.STARTING;
            case "stopping", "deallocating" -> PowerState.STOPPING;
            case "stopped", "deallocated" -> PowerState.STOPPED;
            default -> PowerState.STARTING;
        };
    }

    /** The power code of an instance view's statuses, e.g. {@code running} from {@code PowerState/running}. */
    static String powerCode(java.util.List<String> statusCodes) {
        if (statusCodes == null) {
            return null;
        }
        for (String code : statusCodes) {
            if (code != null && code.startsWith("PowerState/")) {
                return code.substring("PowerState/".length());
            }
        }
        return null;
    }
}
