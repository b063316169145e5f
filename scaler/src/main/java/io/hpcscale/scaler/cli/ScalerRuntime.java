package io.hpcscale.scaler.cli;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreFactory;
import io.hpcscale.scaler.cloud.CloudProviders;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.plan.Planner;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.PoolRuntime;
import io.hpcscale.scaler.run.Scaler;
import io.hpcscale.scaler.run.ScalerEvents;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A scaler wired from the settings: store, pools, providers, planner and event recorder. */
final class ScalerRuntime implements AutoCloseable {
    private final ClusterLoadStore store;
    private final Scaler scaler;
    private final Duration interval;
    private final boolean dryRun;

    private ScalerRuntime(ClusterLoadStore store, Scaler scaler, Duration interval, boolean dryRun) {
        this.store = store;
        this.scaler = scaler;
        this.interval = interval;
        this.dryRun = dryRun;
    }

    static ScalerRuntime start(Settings settings, Clock clock) {
        Map<String, PoolConfig> configs = PoolConfigs.fromSettings(settings);
        CloudProviders providers = new CloudProviders(settings, new ZtExecCommandRunner(), new SimulatedCloud(clock));
        List<PoolRuntime> pools = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (PoolConfig config : configs.values()) {
            try {
                pools.add(new PoolRuntime(config, providers.forPool(config.name())));
            } catch (ConfigException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        boolean dryRun = settings.bool("scaler.dryRun");
        ClusterLoadStore store = StoreFactory.open(settings, clock);
        DocumentStore documents = new DocumentStore(store);
        ScalerEvents events = new ScalerEvents(documents, settings.duration("scaler.eventTtl"), !dryRun);
        Scaler scaler = new Scaler(pools, documents, new Planner(settings.duration("scaler.staleAfter")), events,
                dryRun);
        return new ScalerRuntime(store, scaler, settings.duration("scaler.interval"), dryRun);
    }

    /** One cycle at the wall clock's time: acted on (honouring dry run), or only planned. */
    static CycleOutcome oneCycle(Settings settings, boolean planOnly) throws InterruptedException {
        Clock clock = Clock.systemUTC();
        try (ScalerRuntime runtime = start(settings, clock)) {
            return planOnly ? runtime.scaler.planOnly(clock.instant()) : runtime.scaler.runOnce(clock.instant());
        }
    }

    Scaler scaler() {
        return scaler;
    }

    Duration interval() {
        return interval;
    }

    boolean dryRun() {
        return dryRun;
    }

    @Override
    public void close() {
        store.close();
    }
}
