package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.metrics.Health;
import io.hpcscale.common.metrics.MetricsServer;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.store.ForwardingClusterLoadStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoredDocument;
import io.hpcscale.scaler.metrics.ScalerMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scaler's /metrics and /healthz served over HTTP while a scaler runs on the simulated cloud, scraped with an
 * HTTP client: the figures follow the instances as they start and stop, and the health check fails when the store
 * goes away.
 */
class ScalerMetricsTest {
    private final ScalerFixture fixture = new ScalerFixture();
    private final SwitchableStore store = new SwitchableStore();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Health health = new Health(3);
    private final ScalerMetrics metrics = new ScalerMetrics(registry, health);
    private final HttpClient http = HttpClient.newHttpClient();
    private MetricsServer.Handle server;
    private int port;

    /** The in-memory store, until it is taken down. */
    private final class SwitchableStore extends ForwardingClusterLoadStore {
        volatile boolean down;

        SwitchableStore() {
            super(fixture.memory);
        }

        private void check() {
            if (down) {
                throw new StoreException("connection refused (taken down by the test)");
            }
        }

        @Override
        public Optional<StoredDocument> read(DocumentKey key) {
            check();
            return super.read(key);
        }

        @Override
        public void upsertAll(Collection<ObjectNode> documents) {
            check();
            super.upsertAll(documents);
        }

        @Override
        public String replaceIfMatch(ObjectNode document, String expectedEtag) {
            check();
            return super.replaceIfMatch(document, expectedEtag);
        }

        @Override
        public String create(ObjectNode document) {
            check();
            return super.create(document);
        }
    }

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private void serve() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        server = MetricsServer.start("127.0.0.1", port, "metrics.port", registry, health);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The value of one sample of the scrape, or -1 when it is absent. */
    private double sample(String scrape, String name, String labels) {
        Matcher m = Pattern.compile("^" + Pattern.quote(name + labels) + " (\\S+)$", Pattern.MULTILINE)
                .matcher(scrape);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    private void cycle(Scaler scaler) throws Exception {
        metrics.cycle(scaler.runOnce(fixture.clock.instant()), Duration.ofMillis(5), store.usage());
    }

    @Test
    void theMetricsFollowInstancesAsTheyStartAndStop() throws Exception {
        serve();
        fixture.interceptProviders(provider -> metrics.metered("p", provider));
        Scaler scaler = fixture.scaler(store, false, ScalerFixture.pool("p", 6));
        fixture.agentReported("p");
        fixture.queued("p", "j1", 16);
        fixture.queued("p", "j2", 16);

        cycle(scaler);
        fixture.clock.advance(Duration.ofMinutes(1));
        fixture.agentReported("p");
        fixture.memory.deleteAll(List.of(new DocumentKey("p", "j1"), new DocumentKey("p", "j2")));
        cycle(scaler);
        String started = get("/metrics").body();
        assertEquals(2, sample(started, "hpcscale_instances", "{pool=\"p\",state=\"booting\"}"), started);
        assertEquals(4, sample(started, "hpcscale_instances", "{pool=\"p\",state=\"stopped\"}"), started);
        assertEquals(0, sample(started, "hpcscale_queued_jobs", "{pool=\"p\"}"), "the jobs went away: " + started);
        assertEquals(1, sample(started, "hpcscale_actions_total", "{action=\"start\",outcome=\"ok\",pool=\"p\"}"),
                started);
        assertEquals(1, sample(started, "hpcscale_cloud_requests_total",
                "{call=\"start\",pool=\"p\",status=\"ok\"}"), started);
        assertEquals(1, sample(started, "hpcscale_lease_held", ""), started);

        // No node ever reports: at the boot timeout both are stopped as failed boots, and none replaces them.
        fixture.clock.advance(Duration.ofMinutes(21));
        fixture.agentReported("p");
        cycle(scaler);
        fixture.clock.advance(Duration.ofMinutes(1));
        fixture.agentReported("p");
        cycle(scaler);
        String stopped = get("/metrics").body();
        assertEquals(0, sample(stopped, "hpcscale_instances", "{pool=\"p\",state=\"booting\"}"), stopped);
        assertEquals(2, sample(stopped, "hpcscale_instances", "{pool=\"p\",state=\"failed\"}"), stopped);
        assertEquals(4, sample(stopped, "hpcscale_instances", "{pool=\"p\",state=\"stopped\"}"), stopped);
        assertTrue(sample(stopped, "hpcscale_actions_total",
                "{action=\"boot-timeout\",outcome=\"ok\",pool=\"p\"}") >= 1, stopped);
        assertEquals(4, sample(stopped, "hpcscale_cycles_total", ""), stopped);
        assertEquals(200, get("/healthz").statusCode());
    }

    @Test
    void healthFailsWhenTheStoreGoesAwayAndRecoversWithIt() throws Exception {
        serve();
        Scaler scaler = fixture.scaler(store, false, ScalerFixture.pool("p", 6));
        fixture.agentReported("p");
        cycle(scaler);
        assertEquals(200, get("/healthz").statusCode());

        store.down = true;
        for (int i = 0; i < 3; i++) {
            fixture.clock.advance(Duration.ofMinutes(1));
            cycle(scaler);
        }
        HttpResponse<String> sick = get("/healthz");
        assertEquals(503, sick.statusCode());
        assertTrue(sick.body().contains("3 cycles in a row failed") && sick.body().contains("connection refused"),
                sick.body());
        String scrape = get("/metrics").body();
        // The first cycle fails reading the documents; the next ones already fail renewing the lease.
        assertEquals(3, sample(scrape, "hpcscale_cycle_errors_total", "{kind=\"store\"}")
                + sample(scrape, "hpcscale_cycle_errors_total", "{kind=\"lease\"}"), scrape);

        store.down = false;
        fixture.clock.advance(Duration.ofMinutes(1));
        fixture.agentReported("p");
        cycle(scaler);
        assertEquals(200, get("/healthz").statusCode());
    }

    @Test
    void healthFailsAtOnceWhenAnotherScalerTakesTheLease() throws Exception {
        serve();
        Scaler first = fixture.scaler(store, false, "host-a", ScalerFixture.pool("p", 6));
        cycle(first);
        assertEquals(200, get("/healthz").statusCode());

        // host-b first sees host-a's lease, then finds it unrenewed for longer than the lease, timed on its own clock.
        Scaler second = fixture.scaler(fixture.memory, false, "host-b", ScalerFixture.pool("p", 6));
        second.runOnce(fixture.clock.instant());
        fixture.clock.advance(Duration.ofMinutes(4));
        second.runOnce(fixture.clock.instant());
        fixture.clock.advance(Duration.ofSeconds(30));
        cycle(first);

        HttpResponse<String> sick = get("/healthz");
        assertEquals(503, sick.statusCode());
        assertTrue(sick.body().contains("lease was lost") && sick.body().contains("host-b"), sick.body());
        String standby = get("/metrics").body();
        assertEquals(0, sample(standby, "hpcscale_lease_held", ""));
        assertEquals(-1, sample(standby, "hpcscale_instances", "{pool=\"p\",state=\"stopped\"}"),
                "a standby shows no pool figures of its own: " + standby);
    }

    @Test
    void aPortInUseIsRefusedNamingTheSetting() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> MetricsServer.start("127.0.0.1", taken.getLocalPort(), "metrics.port", registry, health));
            assertTrue(e.getMessage().contains("metrics.port=" + taken.getLocalPort()), e.getMessage());
        }
    }
}
