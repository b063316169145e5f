package io.hpcscale.common.store;

import com.azure.core.credential.TokenCredential;
import com.azure.core.credential.TokenRequestContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The account settings that decide whether the lease and the scaler state stay safe, as the account reports them
 * ("Get Database Account", {@code GET /} of the REST API): its write regions, whether it accepts writes in several,
 * and its default consistency. The Java SDK reads these at start-up but offers no public call for them, so
 * {@code check} asks the REST API itself with the same key or Entra ID token the store uses.
 *
 * @param writeRegions           the regions that accept writes, the first the one this client writes to
 * @param multipleWriteLocations whether the account accepts writes in all of them
 * @param defaultConsistency     the account's default consistency level, as the REST API names it
 */
public record CosmosAccount(List<String> writeRegions, boolean multipleWriteLocations, String defaultConsistency) {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The levels that let a scaler read its own last write of the lease and state, strongest first. */
    private static final List<String> READ_OWN_WRITES = List.of("Strong", "BoundedStaleness", "Session");
    private static final String SERVICE_SCOPE = "https://cosmos.azure.com/.default";
    private static final DateTimeFormatter RFC_1123 = DateTimeFormatter
            .ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    public CosmosAccount {
        writeRegions = List.copyOf(writeRegions);
    }

    /**
     * What in these settings puts hpcscale's guarantees at risk, each with the command that fixes it.
     *
     * @param readLevel {@code store.cosmos.consistency} when set, else null (the account's default is used)
     */
    public List<String> problems(String readLevel, String accountName) {
        List<String> problems = new ArrayList<>();
        String update = "az cosmosdb update --name " + accountName + " --resource-group <group>";
        if (multipleWriteLocations && writeRegions.size() > 1) {
            problems.add("the account accepts writes in " + writeRegions.size() + " regions " + writeRegions + ": "
                    + "hpcscale writes only to " + writeRegions.get(0) + " (its client turns multi-region writes off), "
                    + "but a write made in another region by any other client can commit beside it and break the "
                    + "scaler lease's exclusivity. Use an account with one write region: " + update
                    + " --enable-multiple-write-locations false");
        }
        String level = readLevel != null ? readLevel : defaultConsistency;
        if (!READ_OWN_WRITES.contains(level)) {
            problems.add((readLevel != null ? "store.cosmos.consistency = " + readLevel
                    : "the account's default consistency, " + defaultConsistency + ",") + " does not let a program "
                    + "read its own last write: a scaler may plan from a state older than the one it wrote. Use "
                    + "Session or stronger: " + (readLevel != null ? "unset store.cosmos.consistency, or set it to "
                    + "Session" : update + " --default-consistency-level Session"));
        }
        return problems;
    }

    /**
     * Reads the account with the account key (the REST API's master-key signature) or an Entra ID token.
     *
     * @throws StoreException naming the endpoint, what the account answered and what to do
     */
    static CosmosAccount read(CosmosSettings settings, TokenCredential credential, Clock clock) {
        URI endpoint = URI.create(settings.endpoint());
        String date = RFC_1123.format(clock.instant());
        String authorization = settings.key() != null
                ? "type=master&ver=1.0&sig=" + signature(settings.key(), "GET", "", "", date)
                : "type=aad&ver=1.0&sig=" + token(credential, endpoint);
        HttpRequest request = HttpRequest.newBuilder(endpoint.resolve("/"))
                .timeout(settings.requestTimeout())
                .header("x-ms-date", date)
                .header("x-ms-version", "2018-12-31")
                .header("Accept", "application/json")
                .header("Authorization", URLEncoder.encode(authorization, StandardCharsets.UTF_8))
                .GET().build();
        try {
            HttpResponse<String> response = Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new StoreException(settings.describe() + ": reading the account's settings answered "
                        + response.statusCode() + " (" + CosmosClusterLoadStore.firstLine(response.body()) + ")"
                        + (response.statusCode() == 401 || response.statusCode() == 403 ? ": this identity may not "
                        + "read the account's metadata, which both built-in data roles include" : ""));
            }
            return parse(JSON.readTree(response.body()));
        } catch (IOException e) {
            throw new StoreException(settings.describe() + ": the account's settings cannot be read: "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while reading the Cosmos DB account's settings");
        }
    }

    /**
     * An Entra ID token for the account, asked for as the SDK asks: for the account's own scope, then, when the
     * tenant does not know that resource (AADSTS500011), for the service's scope.
     */
    private static String token(TokenCredential credential, URI endpoint) {
        String accountScope = endpoint.getScheme() + "://" + endpoint.getHost() + "/.default";
        try {
            return credential.getTokenSync(new TokenRequestContext().addScopes(accountScope)).getToken();
        } catch (RuntimeException e) {
            if (e.getMessage() == null || !e.getMessage().contains("AADSTS500011")) {
                throw new StoreException("no Entra ID token for " + accountScope + ": "
                        + CosmosClusterLoadStore.firstLine(e.getMessage()), e);
            }
            return credential.getTokenSync(new TokenRequestContext().addScopes(SERVICE_SCOPE)).getToken();
        }
    }

    static CosmosAccount parse(JsonNode account) {
        List<String> regions = new ArrayList<>();
        account.path("writableLocations").forEach(location -> regions.add(location.path("name").asText()));
        if (regions.isEmpty()) {
            throw new StoreException("the Cosmos DB account names no write region (writableLocations)");
        }
        return new CosmosAccount(regions, account.path("enableMultipleWriteLocations").asBoolean(false),
                account.path("userConsistencyPolicy").path("defaultConsistencyLevel").asText("Session"));
    }

    /**
     * The master-key signature of a request: HMAC-SHA256, keyed with the decoded account key, of the verb, the resource
     * type, the resource link (type and link are empty for the account itself) and the date, the verb, type and date
     * lowercased, each ending in a newline, then an empty line ("Access control in the Azure Cosmos DB REST API").
     */
    static String signature(String key, String verb, String resourceType, String resourceLink, String date) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(key), "HmacSHA256"));
            String payload = verb.toLowerCase(Locale.ROOT) + "\n" + resourceType.toLowerCase(Locale.ROOT) + "\n"
                    + resourceLink + "\n" + date.toLowerCase(Locale.ROOT) + "\n\n";
            return Base64.getEncoder().encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new StoreException("the Cosmos DB account key cannot sign a request (" + e.getMessage() + "): "
                    + "check that store.cosmos.keyFile holds the key as the portal shows it");
        }
    }

    /**
     * One client for every read, made at the first: it trusts what the JVM's trust store holds then (its default
     * trust manager, as the SDK's own client does), not what a default SSL context cached earlier.
     */
    private static final class Http {
        static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .sslContext(currentTrust()).build();

        private Http() {
        }

        private static SSLContext currentTrust() {
            try {
                TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                trust.init((KeyStore) null);
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(null, trust.getTrustManagers(), null);
                return context;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("this JVM cannot make a TLS context: " + e.getMessage(), e);
            }
        }
    }
}
