package io.hpcscale.common.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.Executors;

/**
 * {@code /metrics} in Prometheus's text format and {@code /healthz} (200 "ok", or 503 with the reason), on the JDK's
 * own HTTP server: one small thread, nothing else to install.
 */
public final class MetricsServer implements AutoCloseable {
    private final HttpServer server;

    private MetricsServer(HttpServer server) {
        this.server = server;
    }

    /** The server, if the settings ask for one; closing it stops it. */
    public record Handle(MetricsServer server) implements AutoCloseable {
        /** For the service's start-up line: where to scrape it, or nothing when metrics are off. */
        public String describe() {
            return server == null ? "" : ", /metrics and /healthz on port " + server.port();
        }

        @Override
        public void close() {
            if (server != null) {
                server.close();
            }
        }
    }

    /**
     * Serves on {@code metrics.address} and the port the setting {@code portKey} names, if it is not 0: metrics are
     * off by default.
     *
     * @throws ConfigException naming the setting when the port cannot be opened (in use, not allowed)
     */
    public static Handle start(Settings settings, String portKey, PrometheusRegistry registry, Health health) {
        return start(settings.string("metrics.address"), settings.intValue(portKey), portKey, registry, health);
    }

    /** @param portKey the setting that gave the port, for the message if it cannot be opened */
    public static Handle start(String address, int port, String portKey, PrometheusRegistry registry,
            Health health) {
        if (port == 0) {
            return new Handle(null);
        }
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(address, port), 8);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException(portKey + "=" + port + ", metrics.address=" + address + ": cannot serve metrics "
                    + "there (" + e.getMessage() + "); choose a free port and an address of this host, or set "
                    + portKey + " = 0 to turn metrics off");
        }
        PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
        server.createContext("/metrics", exchange -> {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            writer.write(body, registry.scrape(), EscapingScheme.DEFAULT);
            respond(exchange, 200, writer.getContentType(), body.toByteArray());
        });
        server.createContext("/healthz", exchange -> {
            Optional<String> problem = health.problem();
            respond(exchange, problem.isPresent() ? 503 : 200, "text/plain; charset=utf-8",
                    (problem.orElse("ok") + "\n").getBytes(StandardCharsets.UTF_8));
        });
        server.setExecutor(Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "hpcscale-metrics");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
        return new Handle(new MetricsServer(server));
    }

    /** The port it listens on: the one asked for. */
    public int port() {
        return server.getAddress().getPort();
    }

    private static void respond(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
