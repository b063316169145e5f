package io.hpcscale.common.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A local Cosmos DB (NoSQL API) server, {@code test-servers/cosmos-server.js} on {@code @vercel/cosmosdb-server},
 * over HTTPS with the test certificate. Started once per test JVM (a module's tests share it) through the JUnit
 * extension, and stopped when the JVM's tests end; it also stops by itself if the JVM dies, as its stdin closes.
 * Its control API injects faults (429, 503, hung or refused connections) and counts requests.
 */
public final class CosmosTestServer implements BeforeAllCallback {
    /** Any base64 text: the local server checks no key. */
    public static final String KEY = "QUxMIFRIRSBLRVlTIEFSRSBGSU5FIEhFUkUgLSBsb2NhbCB0ZXN0IHNlcnZlcg==";
    /** The account as the server starts: one write region, Session consistency. */
    public static final String ACCOUNT_RESET = "{\"writeRegions\":[\"South Central US\"],"
            + "\"multipleWriteLocations\":false,\"defaultConsistencyLevel\":\"Session\"}";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static Running running;

    /** The server as the extension started it. */
    public record Running(Process process, String endpoint, HttpClient control) implements
            ExtensionContext.Store.CloseableResource {

        /** Injects a fault, e.g. {@code {"status":429,"retryAfterMs":100,"count":5,"kinds":["upsert"]}}. */
        public void fault(String json) {
            send(HttpRequest.newBuilder(URI.create(endpoint + "/_test/faults"))
                    .POST(HttpRequest.BodyPublishers.ofString(json)).header("content-type", "application/json"));
        }

        /** Provisions the container with this many RU/s (0 = unlimited): beyond it requests get 429, as on Azure. */
        public void throughput(int ruPerSecond) {
            send(HttpRequest.newBuilder(URI.create(endpoint + "/_test/throughput"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"ruPerSecond\":" + ruPerSecond + "}"))
                    .header("content-type", "application/json"));
        }

        /**
         * Sets what the account reports of itself (Get Database Account), e.g.
         * {@code {"writeRegions":["West Europe","North Europe"],"multipleWriteLocations":true}}; {@link #ACCOUNT_RESET}
         * gives back the server's own.
         */
        public void account(String json) {
            send(HttpRequest.newBuilder(URI.create(endpoint + "/_test/account"))
                    .POST(HttpRequest.BodyPublishers.ofString(json)).header("content-type", "application/json"));
        }

        /** Request units charged since the last reset of the statistics. */
        public double requestCharge() {
            return stats().path("requestCharge").asDouble();
        }

        public void clearFaults() {
            send(HttpRequest.newBuilder(URI.create(endpoint + "/_test/faults")).DELETE());
        }

        /** Requests and bytes since the last reset, by kind: see test-servers/README.md. */
        public JsonNode stats() {
            try {
                return JSON.readTree(send(HttpRequest.newBuilder(URI.create(endpoint + "/_test/stats")).GET()));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        public void resetStats() {
            send(HttpRequest.newBuilder(URI.create(endpoint + "/_test/stats")).DELETE());
        }

        private String send(HttpRequest.Builder request) {
            try {
                HttpResponse<String> response = control.send(request.timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() >= 300) {
                    throw new IllegalStateException("the test server answered " + response.statusCode() + ": "
                            + response.body());
                }
                return response.body();
            } catch (IOException e) {
                throw new IllegalStateException("the test server's control API cannot be reached", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() throws InterruptedException {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                process.destroy();
            }
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start(context);
    }

    /** The server of this test JVM, started with the first test class that asks for it. */
    public static synchronized Running running() {
        if (running == null) {
            throw new IllegalStateException("no Cosmos test server: annotate the test with "
                    + "@ExtendWith(CosmosTestServer.class)");
        }
        return running;
    }

    private static synchronized void start(ExtensionContext context) throws IOException {
        if (running != null) {
            return;
        }
        TestCertificate certificate = TestCertificate.get();
        certificate.trustInThisJvm();
        Path servers = TestServers.directory();
        Process process = new ProcessBuilder(List.of("node", servers.resolve("cosmos-server.js").toString(), "--pfx",
                certificate.keyStore().toString(), "--passphrase", TestCertificate.PASSWORD, "--port", "0", "--host",
                "127.0.0.1")).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("cosmos-server listening on ")) {
            process.destroyForcibly();
            throw new IllegalStateException("the Cosmos test server did not start: " + line);
        }
        String endpoint = line.substring("cosmos-server listening on ".length()).strip();
        HttpClient control = HttpClient.newBuilder().sslContext(certificate.clientContext())
                .connectTimeout(Duration.ofSeconds(5)).build();
        running = new Running(process, endpoint, control);
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(CosmosTestServer.class, running);
    }
}
