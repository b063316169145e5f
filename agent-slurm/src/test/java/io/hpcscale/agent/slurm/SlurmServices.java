package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.CheckedPools;
import io.hpcscale.common.agent.JobAdmission;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.cloud.CloudProviders;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.plan.Planner;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.PoolMatching;
import io.hpcscale.scaler.run.ActionGate;
import io.hpcscale.scaler.run.ActionHooks;
import io.hpcscale.scaler.run.CloudThrottles;
import io.hpcscale.scaler.run.PoolRuntime;
import io.hpcscale.scaler.run.RemovalInbox;
import io.hpcscale.scaler.run.Scaler;
import io.hpcscale.scaler.run.ScalerEvent;
import io.hpcscale.scaler.run.ScalerEvents;
import io.hpcscale.scaler.run.ScalerLease;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The agent and the scaler as the two services would run them, in this JVM, sharing a SQLite file as on a
 * single-host installation, and stepped every two seconds of real time. The pools' providers are whatever the
 * configuration names: the command provider over the test cluster's slurmds, or azure on the fake Resource Manager.
 */
final class SlurmServices implements AutoCloseable {
    static final Duration CYCLE = Duration.ofSeconds(2);


    final SqliteClusterLoadStore store;
    final SlurmAdapter adapter;
    final Agent agent;
    final Scaler scaler;
    final List<ScalerEvent> events = Collections.synchronizedList(new ArrayList<>());
    int peakRunning;

    SlurmServices(Path dir, Path config) {
        ConfigLoader loader = new ConfigLoader(ConfigCatalog.installed());
        Settings agentSettings = loader.load(config, Map.of(), SlurmAgentMain.PROGRAM);
        Settings scalerSettings = loader.load(config, Map.of(), Programs.SCALER);
        store = new SqliteClusterLoadStore(dir.resolve("clusterload.db"), Duration.ofSeconds(10),
                Clock.systemUTC());
        DocumentStore documents = new DocumentStore(store);
        adapter = SlurmAgentMain.adapter(agentSettings, new ZtExecCommandRunner());
        agent = new Agent(adapter, documents, PoolMap.fromSettings(agentSettings, "partition"), "head", "test",
                JobAdmission.fromSettings(agentSettings, new ZtExecCommandRunner()),
                CheckedPools.fromSettings(agentSettings));
        ActionGate gate = new ActionGate();
        CloudProviders providers = new CloudProviders(scalerSettings, new ZtExecCommandRunner(),
                new SimulatedCloud(Clock.systemUTC()), gate);
        List<PoolRuntime> pools = new ArrayList<>();
        Map<String, PoolConfig> configs = PoolConfigs.fromSettings(scalerSettings);
        for (PoolConfig pool : configs.values()) {
            pools.add(new PoolRuntime(pool, providers.forPool(pool.name())));
        }
        ScalerEvents recorder = new ScalerEvents(documents, Duration.ofDays(1), true);
        recorder.addListener(events::add);
        scaler = new Scaler(pools, new Scaler.Wiring(documents,
                new Planner(scalerSettings.duration("scaler.staleAfter"), Map.of(),
                        PoolMatching.forPools(configs.values())), recorder,
                ScalerLease.forThisProcess(documents, Duration.ofMinutes(3)), gate, new CloudThrottles(),
                Runnable::run, Clock.systemUTC(), false, RemovalInbox.none(), Duration.ofHours(1),
                ActionHooks.none()));
    }

    void cycle(RealSlurm slurm) throws Exception {
        agent.runOnce(Instant.now());
        scaler.runOnce(Instant.now());
        peakRunning = Math.max(peakRunning, slurm.runningNodes().size());
        Thread.sleep(CYCLE.toMillis());
    }

    void until(RealSlurm slurm, Duration timeout, String what, Callable<Boolean> done) throws Exception {
        Instant deadline = Instant.now().plus(timeout);
        while (!done.call()) {
            assertTrue(Instant.now().isBefore(deadline), "not within " + timeout.toSeconds() + " s: " + what
                    + "; scaler events: " + events);
            cycle(slurm);
        }
    }

    /** Instances or nodes acted on with this outcome ok. */
    long count(EventKind kind) {
        synchronized (events) {
            return events.stream().filter(e -> e.kind() == kind && e.outcome().ok())
                    .mapToLong(e -> e.instances().size()).sum();
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
