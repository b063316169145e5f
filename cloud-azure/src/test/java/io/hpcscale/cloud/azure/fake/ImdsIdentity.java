package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A VM's managed identity as the instance metadata service hands it out: plain HTTP,
 * {@code GET /metadata/identity/oauth2/token?api-version=2018-02-01&resource=<audience>} with {@code Metadata: true},
 * and {@code client_id} for a user-assigned identity (MSAL4J's IMDS source; Microsoft Learn, "How to use managed
 * identities for Azure resources on an Azure VM to acquire an access token"). A resource Entra ID does not know is
 * refused as it refuses it (AADSTS500011); a known one gets a token the fake Resource Manager accepts for that
 * audience only. A credential finds it through {@code AZURE_POD_IDENTITY_AUTHORITY_HOST}, which MSAL4J reads.
 */
public final class ImdsIdentity implements AutoCloseable {
    static final String PATH = "/metadata/identity/oauth2/token";

    private final HttpServer server;
    private final ManagedIdentity identity;
    private final List<String> knownResources;
    private final List<String> asked = new CopyOnWriteArrayList<>();

    /** @param knownResources the audiences Entra ID issues tokens for, e.g. the cloud's Resource Manager audience */
    public ImdsIdentity(ManagedIdentity identity, String... knownResources) {
        this.identity = identity;
        this.knownResources = List.of(knownResources);
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext(PATH, this::answer);
        server.start();
    }

    /** What to put in AZURE_POD_IDENTITY_AUTHORITY_HOST: the service's base, http://127.0.0.1:port. */
    public String authorityHost() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The resource of every token request, in order. */
    public List<String> askedFor() {
        return List.copyOf(asked);
    }

    private void answer(HttpExchange exchange) throws IOException {
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        if (!"true".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Metadata"))) {
            reply(exchange, 400, Json.object().put("error", "invalid_request")
                .put("error_description", "Required metadata header not specified"));
            return;
        }
        if (!"2018-02-01".equals(query.get("api-version")) || query.get("resource") == null) {
            reply(exchange, 400, Json.object().put("error", "invalid_request")
                .put("error_description", "Required query variable 'resource' or 'api-version' is missing"));
            return;
        }
        String resource = query.get("resource");
        asked.add(resource);
        if (!knownResources.contains(resource)) {
            reply(exchange, 400, Json.object().put("error", "invalid_resource")
                .put("error_description", "AADSTS500011: The resource principal named " + resource + " was not "
                    + "found in the tenant. This can happen if the application has not been installed by the "
                    + "administrator of the tenant or consented to by any user in the tenant."));
            return;
        }
        long now = Instant.now().getEpochSecond();
        ObjectNode body = Json.object()
            .put("access_token", identity.issue(resource))
            .put("client_id", query.getOrDefault("client_id", identity.clientId()))
            .put("expires_in", "86399")
            .put("expires_on", Long.toString(now + 86399))
            .put("ext_expires_in", "86399")
            .put("not_before", Long.toString(now))
            .put("resource", resource)
            .put("token_type", "Bearer");
        reply(exchange, 200, body);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> params = new TreeMap<>();
        if (raw == null) {
            return params;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return params;
    }

    private static void reply(HttpExchange exchange, int status, ObjectNode body) throws IOException {
        byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
