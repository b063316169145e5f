package io.hpcscale.cloud.azure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.management.AzureEnvironment;
import com.azure.resourcemanager.resources.fluentcore.utils.ResourceManagerUtils;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The token scope of a custom cloud's Resource Manager requests. The SDK picks it by matching each request's URL
 * against every endpoint of the environment, in the map's order: an entry other than Resource Manager's own that
 * matched its URL (as graph entries set to the endpoint did) made the scope depend on that order.
 */
class AzureCloudTest {
    private static final String ENDPOINT = "https://management.example-cloud.net/";
    private static final String AUDIENCE = "https://management.core.example-cloud.net/";
    /** The entries that say where Resource Manager is and what audience it wants: these may match its URLs. */
    private static final Set<String> RESOURCE_MANAGER_KEYS = Set.of("resourceManagerEndpointUrl",
            "managementEndpointUrl", "activeDirectoryResourceId");

    @Test
    void noEndpointButResourceManagersOwnMatchesItsUrls() {
        AzureEnvironment environment = AzureCloud.CUSTOM.environment(ENDPOINT, AUDIENCE);
        String url = (ENDPOINT + "subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/"
                + "virtualMachineScaleSets/hb/virtualMachines?api-version=2025-04-01").toLowerCase(Locale.ROOT);

        for (Map.Entry<String, String> entry : environment.getEndpoints().entrySet()) {
            if (!RESOURCE_MANAGER_KEYS.contains(entry.getKey())) {
                assertFalse(url.contains(entry.getValue().toLowerCase(Locale.ROOT)), entry.getKey() + " = "
                        + entry.getValue() + " matches Resource Manager's URLs");
            }
        }
    }

    @Test
    void everyRequestAsksForTheConfiguredAudience() {
        AzureEnvironment environment = AzureCloud.CUSTOM.environment(ENDPOINT, AUDIENCE);

        String scope = ResourceManagerUtils.getDefaultScopeFromRequest(new HttpRequest(HttpMethod.GET,
                ENDPOINT + "subscriptions/s/providers/Microsoft.Compute/skus?api-version=2021-07-01"), environment);

        assertEquals(AUDIENCE + "/.default", scope);
    }
}
