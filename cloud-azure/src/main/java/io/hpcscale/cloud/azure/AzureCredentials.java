package io.hpcscale.cloud.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.identity.ManagedIdentityCredentialBuilder;

/**
 * The scaler's Azure sign-in, as {@code azure.credential} and {@code azure.managedIdentityClientId} say: one way for
 * every Azure service it calls, so an administrator grants roles to one identity.
 */
public final class AzureCredentials {
    private AzureCredentials() {
    }

    /** @param http the client the credential asks for tokens through */
    public static TokenCredential create(AzureSettings settings, HttpClient http) {
        if (settings.credential() == AzureSettings.CredentialKind.MANAGED_IDENTITY) {
            ManagedIdentityCredentialBuilder builder = new ManagedIdentityCredentialBuilder().httpClient(http);
            if (settings.managedIdentityClientId() != null) {
                builder.clientId(settings.managedIdentityClientId());
            }
            return builder.build();
        }
        DefaultAzureCredentialBuilder builder = new DefaultAzureCredentialBuilder().httpClient(http)
                .authorityHost(settings.authorityHost());
        if (settings.managedIdentityClientId() != null) {
            builder.managedIdentityClientId(settings.managedIdentityClientId());
        }
        return builder.build();
    }
}
