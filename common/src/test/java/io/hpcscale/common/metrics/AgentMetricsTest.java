package io.hpcscale.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.FakeSchedulerAdapter;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An agent's /metrics and /healthz, scraped over HTTP while it reads a scheduler that changes and then fails. */
class AgentMetricsTest {
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-22T10:00:00Z"));
    private final InMemoryClusterLoadStore store = new InMemoryClusterLoadStore(clock);
    private final FakeSchedulerAdapter scheduler = new FakeSchedulerAdapter();
    private final Agent agent = new Agent(scheduler, new DocumentStore(store),
            new PoolMap(Map.of("batch", "batch"), Map.of()), "head", "test");
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Health health = new Health(3);
    private final AgentMetrics metrics = new AgentMetrics(registry, health);
    private final HttpClient http = HttpClient.newHttpClient();
    private MetricsServer.Handle server;
    private int port;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static SchedulerJob job(String id) {
        return new SchedulerJob(id, List.of("batch"), JobState.Queued, List.of(new Chunk(1, 4, 1024, 0)), 1,
                Placement.free, false, Instant.parse("2026-11-22T09:00:00Z"));
    }

    private void cycle() throws InterruptedException {
        clock.advance(Duration.ofSeconds(120));
        metrics.cycle(agent.runOnce(clock.instant()), store.usage());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static double sample(String scrape, String series) {
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(scrape);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    @Test
    void scrapesWhatTheAgentReadAndWroteAndFailsHealthWhenTheSchedulerKeepsFailing() throws Exception {
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        server = MetricsServer.start("127.0.0.1", port, "metrics.agentPort", registry, health);
        scheduler.putJob(job("1.s")).putJob(job("2.s")).putNode(FakeSchedulerAdapter.freeNode("n1", "batch", 16));

        cycle();
        String first = get("/metrics").body();
        assertEquals(2, sample(first, "hpcscale_agent_jobs_read"), first);
        assertEquals(2, sample(first, "hpcscale_agent_documents_written_total{type=\"jobs\"}"), first);
        assertEquals(1, sample(first, "hpcscale_agent_documents_written_total{type=\"vms\"}"), first);

        scheduler.removeJob("1.s");
        cycle();
        String second = get("/metrics").body();
        assertEquals(1, sample(second, "hpcscale_agent_jobs_read"), second);
        assertEquals(1, sample(second, "hpcscale_agent_documents_deleted_total"), second);
        assertEquals(2, sample(second, "hpcscale_cycles_total"), second);
        assertEquals(200, get("/healthz").statusCode());

        scheduler.failReads("qstat: cannot connect to server pbs01 (errno=15010)");
        for (int i = 0; i < 3; i++) {
            cycle();
        }
        HttpResponse<String> sick = get("/healthz");
        assertEquals(503, sick.statusCode());
        assertTrue(sick.body().contains("cannot connect to server"), sick.body());
        String failing = get("/metrics").body();
        assertEquals(3, sample(failing, "hpcscale_cycle_errors_total{kind=\"scheduler\"}"), failing);
        assertEquals(1, sample(failing, "hpcscale_agent_jobs_read"), "a failed read is not zero jobs: " + failing);
    }
}
