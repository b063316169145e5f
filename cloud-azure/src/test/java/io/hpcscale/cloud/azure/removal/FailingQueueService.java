package io.hpcscale.cloud.azure.removal;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A queue service that answers every request with one error, shaped as Azure Storage writes it (the
 * {@code x-ms-error-code} header and an XML body): what Azurite cannot be made to do, a busy or failing service.
 */
final class FailingQueueService implements AutoCloseable {
    private final HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();

    FailingQueueService(int status, String errorCode) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            byte[] body = ("<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + errorCode + "</Code><Message>"
                    + "The service answers " + status + " to every request, as told.</Message></Error>")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("x-ms-error-code", errorCode);
            exchange.getResponseHeaders().add("Content-Type", "application/xml");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    /** A connection string for Azurite's development account, pointed at this service. */
    String connectionString() {
        return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
                + io.hpcscale.common.testing.AzuriteTestServer.KEY + ";QueueEndpoint=http://127.0.0.1:"
                + server.getAddress().getPort() + "/devstoreaccount1;";
    }

    int requests() {
        return requests.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
