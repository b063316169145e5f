package io.hpcscale.common.metrics;

import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.store.StoreUsage;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;

/** An agent's metrics: its cycles, what it read and wrote, and the drains it carried out. */
public final class AgentMetrics {
    private final CycleMetrics cycles;
    private final Counter written;
    private final Counter deleted;
    private final Gauge jobsRead;
    private final Gauge nodesRead;
    private final Counter drains;

    public AgentMetrics(PrometheusRegistry registry, Health health) {
        cycles = new CycleMetrics(registry, health);
        written = Counter.builder().name("hpcscale_agent_documents_written_total")
                .help("Job and node documents the agent wrote because they changed, by type.")
                .labelNames("type").register(registry);
        deleted = Counter.builder().name("hpcscale_agent_documents_deleted_total")
                .help("Documents of jobs and nodes gone from the scheduler that the agent deleted.")
                .register(registry);
        jobsRead = Gauge.builder().name("hpcscale_agent_jobs_read")
                .help("Jobs the last successful cycle read from the scheduler.").register(registry);
        nodesRead = Gauge.builder().name("hpcscale_agent_nodes_read")
                .help("Nodes the last successful cycle read from the scheduler.").register(registry);
        drains = Counter.builder().name("hpcscale_agent_drains_total")
                .help("Nodes the agent took offline for the scaler (offline) or brought back (resumed).")
                .labelNames("action").register(registry);
    }

    public void cycle(CycleReport report, StoreUsage storeUsage) {
        cycles.cycle(report.at(), Duration.ofMillis(report.millis()), report.failureKind(), report.error(),
                storeUsage);
        for (ClusterLoadDocument document : report.written()) {
            written.labelValues(document.type().wireName()).inc();
        }
        deleted.inc(report.deleted().size());
        if (report.succeeded()) {
            jobsRead.set(report.jobsRead());
            nodesRead.set(report.nodesRead());
        }
        drains.labelValues("offline").inc(report.takenOffline().size());
        drains.labelValues("resumed").inc(report.broughtBack().size());
    }
}
