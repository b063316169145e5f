package io.hpcscale.scaler.run;

import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.UnaryOperator;

/** Scalers over an in-memory store and a simulated cloud, with documents written by hand as an agent would. */
final class ScalerFixture {
    final SettableClock clock = new SettableClock(Instant.parse("2026-11-22T08:00:00Z"));
    final InMemoryClusterLoadStore memory = new InMemoryClusterLoadStore(clock);
    final SimulatedCloud cloud = new SimulatedCloud(clock);
    final List<ScalerEvent> events = new ArrayList<>();
    private UnaryOperator<CloudProvider> providers = UnaryOperator.identity();

    static PoolConfig pool(String name, int max) {
        return PoolConfigs.withDefaults(name, new VmShape(16, 65536, 0), max);
    }

    /** Wraps every provider of scalers made from now on, to watch or disturb their calls. */
    void interceptProviders(UnaryOperator<CloudProvider> wrapper) {
        providers = wrapper;
    }

    Scaler scaler(ClusterLoadStore store, boolean dryRun, PoolConfig... pools) {
        return scaler(store, dryRun, "test-host", pools);
    }

    Scaler scaler(ClusterLoadStore store, boolean dryRun, String host, PoolConfig... pools) {
        return scaler(store, dryRun, host, Runnable::run, pools);
    }

    Scaler scaler(ClusterLoadStore store, boolean dryRun, String host, Executor executor, PoolConfig... pools) {
        DocumentStore documents = new DocumentStore(store);
        return TestScalers.scaler(runtimes(pools), documents, recorder(documents, dryRun), clock, dryRun, host,
                executor);
    }

    /** A scaler that runs the administrator's hooks around each pool's actions. */
    Scaler scaler(ActionHooks hooks, PoolConfig... pools) {
        DocumentStore documents = new DocumentStore(memory);
        return TestScalers.scaler(runtimes(pools), documents, recorder(documents, false), clock, hooks);
    }

    private ScalerEvents recorder(DocumentStore documents, boolean dryRun) {
        ScalerEvents recorder = new ScalerEvents(documents, Duration.ofDays(7), !dryRun);
        recorder.addListener(events::add);
        return recorder;
    }

    private List<PoolRuntime> runtimes(PoolConfig... pools) {
        List<PoolRuntime> runtimes = new ArrayList<>();
        for (PoolConfig pool : pools) {
            if (!cloud.hasScaleSet(pool.name())) {
                cloud.addScaleSet(pool.name(), 6, pool.name() + "-vm", Duration.ofMinutes(2));
            }
            runtimes.add(new PoolRuntime(pool, providers.apply(cloud.provider(pool.name()))));
        }
        return runtimes;
    }

    void agentReported(String... pools) {
        new DocumentStore(memory).upsert(List.of(new AgentDocument("agent-h-pbs", "pbs", "h", "t", clock.instant(), 5,
                List.of(pools), null, clock.instant())));
    }

    void queued(String pool, String id, int cpus) {
        new DocumentStore(memory).upsert(List.of(new JobDocument(id, pool, id, pool, JobState.Queued, 1,
                List.of(new Chunk(1, cpus, 0, 0)), Placement.free, false, clock.instant(), "agent-h-pbs")));
    }

    long active(String pool) {
        return cloud.instances(pool).stream().filter(i -> i.state().active()).count();
    }

    List<ScalerEvent> eventsOf(EventKind kind) {
        return events.stream().filter(e -> e.kind() == kind).toList();
    }

    ScalerStateDocument state(String pool) {
        return new DocumentStore(memory).read(new DocumentKey(pool, ScalerStateDocument.idFor(pool)),
                ScalerStateDocument.class).map(DocumentStore.Versioned::document)
                .orElse(ScalerStateDocument.empty(pool));
    }
}
