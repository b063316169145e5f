package io.hpcscale.cloud.azure;

import com.azure.core.management.AzureEnvironment;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * The {@code azure.*} settings every azure pool shares: which cloud, how to sign in, and the bounds on calls.
 *
 * @param managedIdentityClientId null for the system-assigned identity (or AZURE_CLIENT_ID)
 * @param subscriptionId          null when every pool names its own
 */
public record AzureSettings(
        AzureEnvironment environment,
        String authorityHost,
        CredentialKind credential,
        String managedIdentityClientId,
        String subscriptionId,
        Duration operationTimeout,
        Duration requestTimeout,
        int flexibleParallelism,
        Duration minListInterval) {

    /** How the scaler signs in. */
    public enum CredentialKind {
        /** DefaultAzureCredential: environment, workload identity, managed identity, Azure CLI. */
        DEFAULT,
        /** Only the VM's managed identity. */
        MANAGED_IDENTITY
    }

    /** @throws ConfigException naming the setting that is missing or cannot be used */
    public static AzureSettings from(Settings settings) {
        AzureCloud cloud = AzureCloud.fromSetting(settings.string("azure.cloud"));
        Optional<String> endpoint = settings.optionalString("azure.resourceManagerEndpoint");
        if (cloud == AzureCloud.CUSTOM) {
            String url = endpoint.orElseThrow(() -> new ConfigException("azure.resourceManagerEndpoint is required "
                    + "when azure.cloud = custom: the Resource Manager URL of the cloud"));
            requireHttps("azure.resourceManagerEndpoint", url);
        } else if (endpoint.isPresent()) {
            throw new ConfigException("azure.resourceManagerEndpoint is set but azure.cloud = "
                    + settings.string("azure.cloud") + " has its own endpoint: set azure.cloud = custom, or remove it");
        }
        String authority = settings.optionalString("azure.authorityHost").orElse(cloud.authorityHost());
        requireHttps("azure.authorityHost", authority);
        String audience = settings.optionalString("azure.resourceManagerAudience").orElse(endpoint.orElse(null));
        return new AzureSettings(cloud.environment(endpoint.orElse(null), audience), authority,
                settings.string("azure.credential").equals("managedIdentity") ? CredentialKind.MANAGED_IDENTITY
                        : CredentialKind.DEFAULT,
                settings.optionalString("azure.managedIdentityClientId").orElse(null),
                settings.optionalString("azure.subscriptionId").orElse(null),
                settings.duration("azure.operationTimeout"), settings.duration("azure.requestTimeout"),
                settings.intValue("azure.flexibleParallelism"), settings.duration("azure.minListInterval"));
    }

    private static void requireHttps(String key, String url) {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key + "=" + url + " is not a URL: " + e.getMessage());
        }
        if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            throw new ConfigException(key + "=" + url + " must be an https:// URL: Azure sends tokens only over "
                    + "HTTPS");
        }
    }

    /** The Resource Manager base URL, ending in a slash. */
    public String resourceManagerEndpoint() {
        return environment.getResourceManagerEndpoint();
    }
}
