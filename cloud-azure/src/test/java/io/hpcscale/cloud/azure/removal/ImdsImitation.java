package io.hpcscale.cloud.azure.removal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The instance metadata service as a VM sees it, for one VM: {@code GET /metadata/instance?api-version=...} with
 * {@code Metadata: true} gets the VM's document; without the header, 400 as Azure answers.
 */
final class ImdsImitation implements AutoCloseable {
    private final HttpServer server;
    private volatile String document;

    ImdsImitation(String document) throws IOException {
        this.document = document;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/metadata/instance", this::answer);
        server.start();
    }

    /** A VM's document from the test resources: imds-uniform.json, imds-flexible.json. */
    static String fixture(String name) {
        try (InputStream in = ImdsImitation.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void serve(String document) {
        this.document = document;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void answer(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        boolean asked = "GET".equals(exchange.getRequestMethod())
                && "true".equals(exchange.getRequestHeaders().getFirst("Metadata"))
                && query != null && query.contains("api-version=");
        byte[] body = (asked ? document : "{\"error\":\"Bad request. Required metadata header not specified\"}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(asked ? 200 : 400, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
