package io.hpcscale.scaler.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.common.metrics.AgentMetrics;
import io.hpcscale.common.metrics.Health;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/grafana-dashboard.json asks only for series the scaler and the agents expose. */
class GrafanaDashboardTest {
    private static final Pattern METRIC = Pattern.compile("\\bhpcscale_[a-z_]+");

    /** Every series name the services expose, as Prometheus stores them. */
    private static Set<String> exposed() {
        PrometheusRegistry scaler = new PrometheusRegistry();
        new ScalerMetrics(scaler, new Health(3));
        PrometheusRegistry agent = new PrometheusRegistry();
        new AgentMetrics(agent, new Health(3));
        Set<String> names = new TreeSet<>();
        for (PrometheusRegistry registry : List.of(scaler, agent)) {
            for (MetricSnapshot snapshot : registry.scrape()) {
                String name = snapshot.getMetadata().getPrometheusName();
                if (snapshot instanceof CounterSnapshot) {
                    names.add(name + "_total");
                } else if (snapshot instanceof HistogramSnapshot) {
                    names.addAll(List.of(name + "_bucket", name + "_sum", name + "_count"));
                } else {
                    names.add(name);
                }
            }
        }
        return names;
    }

    private static void queries(JsonNode node, List<String> out) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                if ((field.getKey().equals("expr") || field.getKey().equals("definition"))
                        && field.getValue().isTextual()) {
                    out.add(field.getValue().asText());
                }
                queries(field.getValue(), out);
            });
        } else if (node.isArray()) {
            node.forEach(child -> queries(child, out));
        }
    }

    @Test
    void everyQueryNamesOnlyMetricsThatExist() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Path.of("..", "docs", "grafana-dashboard.json").toFile());
        List<String> queries = new ArrayList<>();
        queries(dashboard, queries);
        assertTrue(queries.size() >= 10, "a dashboard of its panels' queries: " + queries);
        Set<String> exposed = exposed();
        Set<String> used = new TreeSet<>();
        for (String query : queries) {
            Matcher m = METRIC.matcher(query);
            while (m.find()) {
                assertTrue(exposed.contains(m.group()), m.group() + " in \"" + query + "\" is not exposed; exposed: "
                        + exposed);
                used.add(m.group());
            }
        }
        assertFalse(used.isEmpty());
        Set<String> unused = new TreeSet<>(exposed);
        unused.removeAll(used);
        unused.removeIf(n -> n.startsWith("hpcscale_cycle_duration_seconds_"));
        assertEquals(Set.of(), unused, "every metric has a panel");
    }

    @Test
    void itImportsWithADataSourceChosenAtImport() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Path.of("..", "docs", "grafana-dashboard.json").toFile());
        assertEquals("hpcscale", dashboard.get("uid").asText());
        dashboard.get("panels").forEach(panel -> {
            assertEquals("${datasource}", panel.get("datasource").get("uid").asText(), panel.get("title").asText());
            assertTrue(panel.get("targets").size() > 0, panel.get("title").asText());
        });
    }
}
