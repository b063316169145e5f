package io.hpcscale.scaler.run;

import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import io.hpcscale.scaler.sim.SimJob;
import io.hpcscale.scaler.sim.SimulatedCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Small simulated clusters for scaler tests: one pool "p" of 4-CPU instances. */
final class Clusters {
    static final Instant START = Instant.parse("2026-11-22T08:00:00Z");

    private Clusters() {
    }

    static PoolConfig pool(int min, int max, Duration idleTimeout) {
        return new PoolConfig("p", new VmShape(4, 16384, 0), min, max, idleTimeout, Duration.ofMinutes(20), false,
                StopAction.DEALLOCATE, 100, 10, 3, Duration.ofMinutes(10));
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
