package io.hpcscale.scaler.cli;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.metrics.Health;
import io.hpcscale.common.metrics.MetricsServer;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreFactory;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CloudModule;
import io.hpcscale.scaler.cloud.CloudProviders;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.plan.CustomDecision;
import io.hpcscale.scaler.plan.CustomDecisions;
import io.hpcscale.scaler.plan.Planner;
import io.hpcscale.scaler.metrics.ScalerMetrics;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolMatching;
import io.hpcscale.scaler.pool.PriceFile;
import io.hpcscale.scaler.pool.PriceList;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.run.ActionGate;
import io.hpcscale.scaler.run.ActionHooks;
import io.hpcscale.scaler.run.CloudThrottles;
import io.hpcscale.scaler.run.CycleOutcome;
import io.hpcscale.scaler.run.PoolRuntime;
import io.hpcscale.scaler.run.RemovalInbox;
import io.hpcscale.scaler.run.Scaler;
import io.hpcscale.scaler.run.ScalerEvents;
import io.hpcscale.scaler.run.ScalerLease;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** A scaler wired from the settings: store, lease, pools, providers, planner, event recorder and pool threads. */
final class ScalerRuntime implements AutoCloseable {
    private final ClusterLoadStore store;
    private final Scaler scaler;
    private final ExecutorService poolThreads;
    private final RemovalInbox removals;
    private final Clock clock;
    private final Duration interval;
    private final Duration quickInterval;
    private final Duration grace;
    private final boolean dryRun;
    private final ScalerMetrics metrics;
    private final PrometheusRegistry registry;
    private final Health health;
    private Instant nextCycle;

    private ScalerRuntime(ClusterLoadStore store, Scaler scaler, ExecutorService poolThreads, RemovalInbox removals,
            Clock clock, Settings settings, Observability observability) {
        this.store = store;
        this.scaler = scaler;
        this.poolThreads = poolThreads;
        this.removals = removals;
        this.clock = clock;
        this.interval = settings.duration("scaler.interval");
        this.quickInterval = settings.duration("scaler.quickInterval");
        this.grace = settings.duration("scaler.shutdownGrace");
        this.dryRun = settings.bool("scaler.dryRun");
        this.metrics = observability.metrics();
        this.registry = observability.registry();
        this.health = observability.health();
    }

    /** The metrics every cycle feeds and the health check, made before the providers they count. */
    private record Observability(PrometheusRegistry registry, Health health, ScalerMetrics metrics) {
        static Observability from(Settings settings) {
            PrometheusRegistry registry = new PrometheusRegistry();
            Health health = new Health(settings.intValue("metrics.unhealthyAfter"));
            return new Observability(registry, health, new ScalerMetrics(registry, health));
        }
    }

    static ScalerRuntime start(Settings settings, Clock clock) {
        return start(settings, clock, false, CloudProviders.installedModules());
    }

    /**
     * A runtime with these clouds: tests give one whose clients trust a local imitation and keep the test's time,
     * so that a half hour of cycles runs in seconds.
     */
    static ScalerRuntime start(Settings settings, Clock clock, List<CloudModule> clouds) {
        return start(settings, clock, false, clouds);
    }

    /**
     * A runtime for commands that only plan (plan, status): the store is opened as it is, read-only, so that a
     * missing SQLite file is an error rather than a new empty store and a user who may only read it can use them.
     */
    static ScalerRuntime forReading(Settings settings, Clock clock) {
        return start(settings, clock, true, CloudProviders.installedModules());
    }

    private static ScalerRuntime start(Settings settings, Clock clock, boolean readOnly,
            List<CloudModule> clouds) {
        Duration interval = settings.duration("scaler.interval");
        Duration leaseTtl = settings.optionalDuration("scaler.leaseTtl").orElse(interval.multipliedBy(3));
        if (leaseTtl.compareTo(interval.multipliedBy(2)) < 0) {
            throw new ConfigException("scaler.leaseTtl=" + settings.string("scaler.leaseTtl") + " is less than twice "
                    + "scaler.interval (" + interval.toSeconds() + "s): the lease would expire between two renewals; "
                    + "leave it out for the default of three intervals");
        }
        ActionGate gate = new ActionGate();
        Map<String, PoolConfig> configs = PoolConfigs.fromSettings(settings);
        Map<String, CustomDecision> customDecisions = CustomDecisions.installed(settings);
        CustomDecisions.check(configs, customDecisions);
        CloudProviders providers = new CloudProviders(settings, new ZtExecCommandRunner(), new SimulatedCloud(clock),
                gate, clouds);
        Observability observability = Observability.from(settings);
        Map<PoolConfig, CloudProvider> providerOf = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (PoolConfig config : configs.values()) {
            try {
                providerOf.put(config, observability.metrics().metered(config.name(),
                        providers.forPool(config.name())));
            } catch (ConfigException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        boolean dryRun = settings.bool("scaler.dryRun");
        ClusterLoadStore store = readOnly ? StoreFactory.openForReading(settings, clock)
                : StoreFactory.open(settings, clock);
        DocumentStore documents = new DocumentStore(store);
        List<PoolRuntime> pools = new ArrayList<>();
        Supplier<PriceList> prices = settings.optionalString("scaler.priceList").<Supplier<PriceList>>map(
                file -> new PriceFile(Path.of(file))).orElseGet(PriceFile::none);
        providerOf.forEach((config, provider) -> pools.add(new PoolRuntime(config, provider, config.fixed()
                ? providers.targetForPool(config.name(), documents, clock) : null, prices)));
        ScalerEvents events = new ScalerEvents(documents, settings.duration("scaler.eventTtl"), !dryRun);
        RemovalInbox removals = providers.removalInbox(clock);
        ExecutorService poolThreads = Executors.newFixedThreadPool(settings.intValue("scaler.poolConcurrency"),
                daemonThreads());
        Scaler scaler = new Scaler(pools, new Scaler.Wiring(documents,
                new Planner(settings.duration("scaler.staleAfter"), customDecisions,
                        PoolMatching.forPools(configs.values())), events,
                ScalerLease.forThisProcess(documents, leaseTtl), gate, new CloudThrottles(), poolThreads, clock,
                dryRun, removals, settings.duration("scaler.fullReadInterval"),
                ActionHooks.fromSettings(settings, new ZtExecCommandRunner())));
        return new ScalerRuntime(store, scaler, poolThreads, removals, clock, settings, observability);
    }

    /** One cycle at the wall clock's time, waiting for every pool: acted on (honouring dry run), or only planned. */
    CycleOutcome oneCycle(boolean planOnly) throws InterruptedException {
        Instant now = clock.instant();
        return planOnly ? scaler.planOnly(now) : scaler.runOnce(now);
    }

    /**
     * One turn of the service: a cycle when one is due (every {@code scaler.interval}) or when an agent serving the
     * pools wrote a change since the last (checked every {@code scaler.quickInterval} with one point read per agent);
     * returns when the next turn should begin. A standby only watches the lease, until it expires.
     */
    Instant serviceCycle(Instant now) throws InterruptedException {
        boolean due = nextCycle == null || !now.isBefore(nextCycle);
        if (!due && !(quickInterval.isZero() || dryRun) && scaler.agentsChanged()) {
            due = true;
        }
        if (due) {
            long started = System.nanoTime();
            CycleOutcome outcome = scaler.runCycle(now, interval);
            metrics.cycle(outcome, Duration.ofNanos(System.nanoTime() - started), store.usage());
            nextCycle = now.plus(interval);
            if (outcome.standby() && outcome.lease().expiresAt() != null
                    && outcome.lease().expiresAt().isBefore(nextCycle)) {
                return outcome.lease().expiresAt();
            }
            if (outcome.standby()) {
                return nextCycle;
            }
        }
        Instant quick = now.plus(quickInterval);
        return quickInterval.isZero() || quick.isAfter(nextCycle) ? nextCycle : quick;
    }

    /** Stops new calls at once; {@link #shutDown()} then waits for those in flight. */
    void stopActing() {
        scaler.stopActing();
    }

    /** @return whether every call in flight ended within the grace period */
    boolean shutDown() throws InterruptedException {
        return scaler.shutDown(grace);
    }

    Scaler scaler() {
        return scaler;
    }

    /** Each pool's settings, with the shape its provider gave, by name. */
    Map<String, PoolConfig> poolConfigs() {
        Map<String, PoolConfig> configs = new LinkedHashMap<>();
        scaler.pools().forEach(p -> configs.put(p.name(), p.config()));
        return configs;
    }

    DocumentStore documents() {
        return new DocumentStore(store);
    }

    /** Serves /metrics and /healthz when {@code metrics.port} asks for it. */
    MetricsServer.Handle serveMetrics(Settings settings) {
        return MetricsServer.start(settings, "metrics.port", registry, health);
    }

    Duration interval() {
        return interval;
    }

    Duration grace() {
        return grace;
    }

    boolean dryRun() {
        return dryRun;
    }

    @Override
    public void close() {
        poolThreads.shutdownNow();
        removals.close();
        store.close();
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "hpcscale-pool-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
