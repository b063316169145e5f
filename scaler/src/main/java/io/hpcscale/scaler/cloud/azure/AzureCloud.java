package io.hpcscale.scaler.cloud.azure;

import com.azure.core.management.AzureEnvironment;
import com.azure.identity.AzureAuthorityHosts;
import java.util.Map;

/** The Azure clouds {@code azure.cloud} names, each with its Resource Manager and sign-in endpoints. */
enum AzureCloud {
    PUBLIC("public", AzureEnvironment.AZURE, AzureAuthorityHosts.AZURE_PUBLIC_CLOUD),
    CHINA("china", AzureEnvironment.AZURE_CHINA, AzureAuthorityHosts.AZURE_CHINA),
    USGOV("usgov", AzureEnvironment.AZURE_US_GOVERNMENT, AzureAuthorityHosts.AZURE_GOVERNMENT),
    CUSTOM("custom", null, AzureAuthorityHosts.AZURE_PUBLIC_CLOUD);

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
     * The SDK's description of the cloud; a custom one has only what a Resource Manager client uses. The graph
     * entry is there because the compute client builds an authorization client that needs one.
     */
    AzureEnvironment environment(String resourceManagerEndpoint, String audience) {
        if (environment != null) {
            return environment;
        }
        String endpoint = withSlash(resourceManagerEndpoint);
        return new AzureEnvironment(Map.of(
                "resourceManagerEndpointUrl", endpoint,
                "managementEndpointUrl", withSlash(audience),
                "microsoftGraphResourceId", endpoint,
                "activeDirectoryEndpointUrl", withSlash(authorityHost),
                "activeDirectoryResourceId", withSlash(audience),
                "activeDirectoryGraphResourceId", endpoint));
    }

    private static String withSlash(String url) {
        return url.endsWith("/") ? url : url + "/";
    }
}
