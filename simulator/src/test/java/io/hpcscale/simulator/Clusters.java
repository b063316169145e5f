package io.hpcscale.simulator;

import io.hpcscale.common.config.Durations;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.simulator.SimJob;
import io.hpcscale.simulator.SimulatedCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Small simulated clusters for scaler tests: one pool "p" of 4-CPU instances. */
final class Clusters {
    static final Instant START = Instant.parse("2026-11-22T08:00:00Z");

    private Clusters() {
    }

    static PoolConfig pool(int min, int max, Duration idleTimeout) {
        return PoolConfigs.withDefaults("p", new VmShape(4, 16384, 0), max, Map.of("min", Integer.toString(min),
                "idleTimeout", Durations.format(idleTimeout)));
    }

    static SimulatedCluster cluster(PoolConfig pool, int scaleSetSize, Duration bootDelay) {
        SettableClock clock = new SettableClock(START);
        return new SimulatedCluster(clock, new InMemoryClusterLoadStore(clock),
                new SimulatedCluster.Spec(List.of(pool), scaleSetSize, bootDelay, Duration.ofMinutes(6),
                        Duration.ofDays(1)));
    }

    static SimJob job(SimulatedCluster cluster, String id, int nodes, Duration runtime) {
        return new SimJob(id, "p", cluster.clock().instant(), nodes, runtime, runtime, false);
    }
}
