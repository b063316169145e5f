package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.Node;
import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.config.EveryModule;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.cloud.CloudProviders;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.plan.Planner;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.report.StatusReader;
import io.hpcscale.scaler.report.StatusText;
import io.hpcscale.scaler.run.ActionGate;
import io.hpcscale.scaler.run.ActionHooks;
import io.hpcscale.scaler.run.CloudThrottles;
import io.hpcscale.scaler.run.PoolRuntime;
import io.hpcscale.scaler.run.RemovalInbox;
import io.hpcscale.scaler.run.Scaler;
import io.hpcscale.scaler.run.ScalerEvents;
import io.hpcscale.scaler.run.ScalerLease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * The agent and the scaler as the two services run them, in this JVM on one store, against the mock API server and
 * the simulated cloud, on a clock the test steps. A kubelet of the test's own registers a Ready node, labelled with
 * its pool and offering 16 CPUs and 64 GiB, when an instance runs, and removes it when the instance stops.
 */
final class K8sServices {
    static final Duration CYCLE = Duration.ofSeconds(30);

    final SettableClock clock = new SettableClock(Instant.parse("2026-11-27T06:00:00Z"));
    final SimulatedCloud cloud = new SimulatedCloud(clock);
    final DocumentStore documents = new DocumentStore(new InMemoryClusterLoadStore(clock));
    private final MockCluster cluster;
    private final Agent agent;
    private final Scaler scaler;
    private final Map<String, PoolConfig> poolConfigs;

    /** @param pools pool name → max; each pool's nodes offer 16 CPUs and 64 GiB and boot in one minute */
    K8sServices(MockCluster cluster, Map<String, Integer> pools, Map<String, String> more) {
        this.cluster = cluster;
        Map<String, String> values = new LinkedHashMap<>();
        pools.forEach((pool, max) -> {
            values.put("pool." + pool + ".provider", "simulated");
            values.put("pool." + pool + ".max", Integer.toString(max));
            values.put("pool." + pool + ".cpus", "16");
            values.put("pool." + pool + ".memoryMb", "65536");
            values.put("pool." + pool + ".simulated.bootDelay", "1m");
            values.put("pool." + pool + ".idleTimeout", "5m");
        });
        values.putAll(more);
        Settings agentSettings = EveryModule.loader().fromMap(values, K8sAgentMain.PROGRAM);
        Settings scalerSettings = EveryModule.loader().fromMap(values, Programs.SCALER);
        agent = new Agent(new K8sAdapter(cluster.admin, K8sSettings.from(agentSettings), clock), documents,
                PoolMap.fromSettings(agentSettings, K8sSettings.QUEUE_PROPERTY), "head", "test");
        ActionGate gate = new ActionGate();
        CloudProviders providers = new CloudProviders(scalerSettings, null, cloud, gate);
        List<PoolRuntime> runtimes = new ArrayList<>();
        poolConfigs = PoolConfigs.fromSettings(scalerSettings);
        for (PoolConfig pool : poolConfigs.values()) {
            runtimes.add(new PoolRuntime(pool, providers.forPool(pool.name())));
        }
        scaler = new Scaler(runtimes, new Scaler.Wiring(documents,
                new Planner(scalerSettings.duration("scaler.staleAfter")),
                new ScalerEvents(documents, Duration.ofDays(1), false),
                ScalerLease.forThisProcess(documents, Duration.ofMinutes(3)), gate, new CloudThrottles(),
                Runnable::run, clock, false, RemovalInbox.none(), Duration.ofHours(1), ActionHooks.none()));
        cloud.addListener((pool, instance, from, evicted, at) -> kubelet(pool, instance));
    }

    private void kubelet(String pool, Instance instance) {
        Node node = cluster.admin.nodes().withName(instance.nodeName()).get();
        if (instance.state() == PowerState.RUNNING && node == null) {
            cluster.node(instance.nodeName(), pool, 16, "64Gi");
        } else if (instance.state() == PowerState.STOPPED && node != null) {
            cluster.admin.nodes().withName(instance.nodeName()).delete();
        }
    }

    /** One agent cycle then one scaler cycle, and the clock a cycle on. */
    void cycle() throws InterruptedException {
        agent.runOnce(clock.instant());
        scaler.runOnce(clock.instant());
        clock.advance(CYCLE);
    }

    void cycles(int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            cycle();
        }
    }

    /** What {@code hpcscale-scaler status} prints now. */
    String status(Map<String, PoolConfig> pools) throws InterruptedException {
        return String.join("\n", new StatusText(CommandLine.Help.Ansi.OFF).lines(new StatusReader(documents)
                .read(pools, scaler.planOnly(clock.instant()))));
    }

    Map<String, PoolConfig> pools() {
        return poolConfigs;
    }

    /** Instances of the pool starting or running. */
    long active(String pool) {
        return cloud.instances(pool).stream().filter(i -> i.state().active()).count();
    }

    List<JobDocument> jobs(String pool) {
        return documents.inPool(DocumentType.JOBS, pool, JobDocument.class);
    }
}
