package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The identity side: the App Service managed-identity endpoint that hands out tokens, and the check ARM makes
 * of the bearer token on every other request.
 *
 * <p>Token lifetimes are on wall-clock time, not the fake's clock: the SDK caches tokens by real time.
 */
public final class ManagedIdentity {
    public static final String PATH = "/msi/token";

    private volatile String header = UUID.randomUUID().toString();
    private final String principalId = UUID.randomUUID().toString();
    private final String clientId = UUID.randomUUID().toString();
    private final Map<String, String> valid = new HashMap<>();
    private final Set<String> audiences = new HashSet<>();
    private final Set<String> revoked = new HashSet<>();
    private volatile Duration lifetime = Duration.ofHours(24);

    /** The secret App Service puts in IDENTITY_HEADER; the token request must echo it in X-IDENTITY-HEADER. */
    public String header() {
        return header;
    }

    /**
     * Expect this secret instead of a random one: the credential reads IDENTITY_HEADER from the process
     * environment, which is fixed before the JVM starts.
     */
    public ManagedIdentity expectHeader(String secret) {
        this.header = secret;
        return this;
    }

    public String principalId() {
        return principalId;
    }

    public String clientId() {
        return clientId;
    }

    public ManagedIdentity tokenLifetime(Duration lifetime) {
        this.lifetime = lifetime;
        return this;
    }

    /** A token the fake accepts without the identity endpoint, for tests that use a fixed credential. */
    public synchronized String issueStaticToken() {
        String token = "static-" + UUID.randomUUID();
        valid.put(token, null);
        return token;
    }

    /** A token for {@code audience}, as Microsoft Entra ID issues one to whatever endpoint asked for it. */
    public synchronized String issue(String audience) {
        String token = "mi-" + UUID.randomUUID();
        valid.put(token, audience);
        return token;
    }

    /**
     * Accept only tokens issued for one of these audiences, as Resource Manager does (it lists
     * https://management.core.windows.net/ and https://management.azure.com/, with and without the slash, for the
     * public cloud). Until called, any audience is accepted.
     */
    public synchronized ManagedIdentity acceptAudiences(String... accepted) {
        audiences.clear();
        audiences.addAll(Set.of(accepted));
        return this;
    }

    /** Every token issued so far stops working, as when a role assignment or the identity is removed. */
    public synchronized void revokeAll() {
        revoked.addAll(valid.keySet());
        valid.clear();
    }

    /**
     * Answers the App Service protocol (api-version 2019-08-01): GET with {@code resource}, header
     * {@code X-IDENTITY-HEADER}; expires_on in epoch seconds as a string.
     */
    ArmResponse token(ArmRequest request) {
        if (!header.equals(request.header("X-IDENTITY-HEADER"))) {
            // App Service refuses a missing or wrong secret before looking at anything else.
            return ArmResponse.json(401, Json.object().put("statusCode", 401)
                .put("message", "Unauthorized. The X-IDENTITY-HEADER is missing or invalid.")
                .put("correlationId", UUID.randomUUID().toString()));
        }
        String resource = request.query("resource");
        if (resource == null || resource.isBlank() || request.query("api-version") == null) {
            return ArmResponse.json(400, Json.object().put("statusCode", 400)
                .put("message", "Required query parameters 'resource' and 'api-version' are missing.")
                .put("correlationId", UUID.randomUUID().toString()));
        }
        String token = issue(resource);
        long expiresOn = Instant.now().plus(lifetime).getEpochSecond();
        ObjectNode body = Json.object()
            .put("access_token", token)
            .put("expires_on", Long.toString(expiresOn))
            .put("resource", resource)
            .put("token_type", "Bearer")
            .put("client_id", clientId);
        return ArmResponse.ok(body);
    }

    /** ARM's 401s: no header, or a token it does not know (never issued, or revoked). */
    synchronized void authenticate(ArmRequest request) {
        String authorization = request.header("Authorization");
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new ArmException(401, "AuthenticationFailed",
                "Authentication failed. The 'Authorization' header is missing.");
        }
        String token = authorization.substring(7).trim();
        if (!valid.containsKey(token)) {
            throw new ArmException(401, "InvalidAuthenticationToken", revoked.contains(token)
                ? "The access token is invalid: it has been revoked."
                : "The access token is invalid.");
        }
        String audience = valid.get(token);
        if (audience != null && !audiences.isEmpty() && !audiences.contains(audience)) {
            throw new ArmException(401, "InvalidAuthenticationToken", "The access token has been obtained for wrong "
                + "audience or resource '" + audience + "'. It should exactly match with one of the allowed "
                + "audiences '" + String.join("','", new java.util.TreeSet<>(audiences)) + "'.");
        }
    }
}
