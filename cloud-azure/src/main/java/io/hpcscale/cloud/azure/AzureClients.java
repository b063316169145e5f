package io.hpcscale.cloud.azure;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.policy.RetryPolicy;
import com.azure.core.management.profile.AzureProfile;
import com.azure.resourcemanager.authorization.AuthorizationManager;
import com.azure.resourcemanager.compute.ComputeManager;
import com.azure.resourcemanager.resources.fluentcore.utils.ResourceManagerUtils;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;

/**
 * The management SDK's clients, one set per subscription, sharing one HTTP client and one credential (so one
 * token, refreshed by the SDK). The JDK HTTP client: the scaler needs no other, and it trusts what the JVM trusts
 * (a proxy or private CA comes through JAVA_OPTS, as for any JVM). Nothing is logged of requests, so no token or
 * header reaches a log.
 */
public final class AzureClients {
    private final AzureSettings settings;
    private final HttpClient http;
    private final TokenCredential credential;
    private final Map<String, ComputeManager> compute = new ConcurrentHashMap<>();
    private final Map<String, AuthorizationManager> authorization = new ConcurrentHashMap<>();
    private final Map<String, ComputeBudget> budgets = new ConcurrentHashMap<>();
    private final ArmPace pace;

    /** Clients that trust what the JVM trusts: what the scaler runs with. */
    public AzureClients(AzureSettings settings) {
        this(settings, null, ArmPace.REAL);
    }

    /**
     * @param trust the TLS context to use instead of the JVM's default (tests against a local imitation)
     * @param pace  the time listings and polls are paced by
     */
    public AzureClients(AzureSettings settings, SSLContext trust, ArmPace pace) {
        this.settings = settings;
        this.pace = pace;
        java.net.http.HttpClient.Builder jdk = java.net.http.HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(30));
        if (trust != null) {
            jdk.sslContext(trust);
        }
        this.http = new JdkHttpClientBuilder(jdk).responseTimeout(settings.requestTimeout()).build();
        this.credential = AzureCredentials.create(settings, http);
    }

    public AzureSettings settings() {
        return settings;
    }

    /**
     * Asks the credential for a Resource Manager token now, for the scope the clients ask for on their first
     * request (so the token is then cached for them), and waits at most {@code bound}. The token stays in the
     * credential's cache and is never shown.
     *
     * @throws RuntimeException the credential's, when no credential it tries can sign in
     * @throws TimeoutException when the credential has not answered within {@code bound}
     */
    void signIn(Duration bound) throws InterruptedException, TimeoutException {
        String scope = ResourceManagerUtils.getDefaultScopeFromRequest(
                new HttpRequest(HttpMethod.GET, settings.resourceManagerEndpoint()), settings.environment());
        CompletableFuture<AccessToken> token = credential.getToken(new TokenRequestContext().addScopes(scope))
                .toFuture();
        try {
            token.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure
                    : new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } finally {
            token.cancel(true);
        }
    }

    ArmPace pace() {
        return pace;
    }

    /** The subscription's Compute throttling budget, which every reply of its clients reports to. */
    ComputeBudget budget(String subscriptionId) {
        return budgets.computeIfAbsent(subscriptionId, id -> new ComputeBudget(pace.clock()));
    }

    ComputeManager compute(String subscriptionId) {
        return compute.computeIfAbsent(subscriptionId, id -> ComputeManager.configure().withHttpClient(http)
                .withRetryPolicy(retryPolicy()).withPolicy(new ComputeBudgetPolicy(budget(id)))
                .authenticate(credential, profile(id)));
    }

    /** What each page of a listing is sent through: the subscription's Compute pipeline. */
    HttpPipeline pipeline(String subscriptionId) {
        return compute(subscriptionId).httpPipeline();
    }

    AuthorizationManager authorization(String subscriptionId) {
        return authorization.computeIfAbsent(subscriptionId, id -> AuthorizationManager.configure()
                .withHttpClient(http).withRetryPolicy(retryPolicy()).authenticate(credential, profile(id)));
    }

    private AzureProfile profile(String subscriptionId) {
        return new AzureProfile(null, subscriptionId, settings.environment());
    }

    private static RetryPolicy retryPolicy() {
        return new RetryPolicy(new ArmRetryStrategy(), "Retry-After", ChronoUnit.SECONDS);
    }
}
