package io.hpcscale.cloud.azure;

import com.azure.core.management.AzureEnvironment;
import com.azure.identity.AzureAuthorityHosts;
import java.util.Map;

/** The Azure clouds {@code azure.cloud} names, each with its Resource Manager and sign-in endpoints. */
enum AzureCloud {
    PUBLIC("public", AzureEnvironment.AZURE, AzureAuthorityHosts.AZURE_PUBLIC_CLOUD),
    CHINA("china", AzureEnvironment.AZURE_CHINA, AzureAuthorityHosts.AZURE_CHINA),
    USGOV("usgov", AzureEnvironment.AZURE_US_GOVERNMENT, AzureAuthorityHosts.AZURE_GOVERNMENT),
    CUSTOM("custom", null, AzureAuthorityHosts.AZURE_PUBLIC_CLOUD);

    private static final String UNUSED_GRAPH = "https://graph.microsoft.com/";

    private final String setting;
    private final AzureEnvironment environment;
    private final String authorityHost;

    AzureCloud(String setting, AzureEnvironment environment, String authorityHost) {
        this.setting = setting;
        this.environment = environment;
        this.authorityHost = authorityHost;
    }

    static AzureCloud fromSetting(String value) {
        for (AzureCloud cloud : values()) {
            if (cloud.setting.equals(value)) {
                return cloud;
            }
        }
        throw new IllegalArgumentException("no Azure cloud " + value);
    }

    String authorityHost() {
        return authorityHost;
    }

    /**
     * The SDK's description of the cloud; a custom one has only what a Resource Manager client uses.
     *
     * <p>The management SDK picks a request's token scope by matching its URL against every endpoint of the
     * environment ({@code ResourceManagerUtils.getDefaultScopeFromUrl}): a URL matching the graph endpoints gets a
     * graph token, any other the {@code managementEndpointUrl} audience. So no endpoint but Resource Manager's may
     * match Resource Manager's URLs, or the scope depends on the map's order and may be the endpoint URL instead
     * of the audience. The graph entries (the compute client builds an authorization client that wants one, and
     * hpcscale never calls it) name Microsoft Graph, which no Resource Manager URL contains.
     */
    AzureEnvironment environment(String resourceManagerEndpoint, String audience) {
        if (environment != null) {
            return environment;
        }
        String endpoint = withSlash(resourceManagerEndpoint);
        return new AzureEnvironment(Map.of(
                "resourceManagerEndpointUrl", endpoint,
                "managementEndpointUrl", withSlash(audience),
                "microsoftGraphResourceId", UNUSED_GRAPH,
                "activeDirectoryEndpointUrl", withSlash(authorityHost),
                "activeDirectoryResourceId", withSlash(audience),
                "activeDirectoryGraphResourceId", UNUSED_GRAPH));
    }

    private static String withSlash(String url) {
        return url.endsWith("/") ? url : url + "/";
    }
}
