package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.Programs;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One queue served by pool "a" (16-CPU instances) and its fallback "b" (64-CPU instances): the agent reports the
 * queue's jobs and nodes in a's partition, and names both pools in its heartbeat.
 */
class FallbackPoolsTest {
    private final ScalerFixture fixture = new ScalerFixture();
    private final SettableClock clock = fixture.clock;
    private final SimulatedCloud cloud = fixture.cloud;
    private final DocumentStore documents = new DocumentStore(fixture.memory);

    /** Pools a and b, b a's fallback; {@code extra} are full keys on top. */
    private PoolConfig[] group(int maxA, int maxB, String... extra) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.a.provider", "simulated");
        values.put("pool.a.cpus", "16");
        values.put("pool.a.memoryMb", "65536");
        values.put("pool.a.max", Integer.toString(maxA));
        values.put("pool.a.fallbacks", "b");
        values.put("pool.b.provider", "simulated");
        values.put("pool.b.cpus", "64");
        values.put("pool.b.memoryMb", "262144");
        values.put("pool.b.max", Integer.toString(maxB));
        for (int i = 0; i + 1 < extra.length; i += 2) {
            values.put(extra[i], extra[i + 1]);
        }
        Map<String, PoolConfig> pools = PoolConfigs.fromSettings(new ConfigLoader(ConfigCatalog.installed())
                .fromMap(values, Programs.SCALER));
        return pools.values().toArray(PoolConfig[]::new);
    }

    @Test
    void aGroupOfPoolsCannotForecastBackfillForOneOfThem() {
        ConfigException e = assertThrows(ConfigException.class, () -> group(4, 4, "pool.b.demand", "backfill"));
        assertTrue(e.getMessage().contains("pool.b.demand = backfill cannot be combined with fallback pools"),
                e.getMessage());
    }

    private Scaler scaler(PoolConfig... pools) {
        return fixture.scaler(fixture.memory, false, pools);
    }

    private void cycle(Scaler scaler) throws InterruptedException {
        fixture.agentReported("a", "b");
        scaler.runOnce(clock.instant());
    }

    /** The node of a running instance of pool b, reported as the agent reports it: in a's partition. */
    private void reportedInA(Instance instance, boolean offline, Instant lastBusyAt, Instant drainRequestedAt) {
        documents.upsert(List.of(new VmDocument(CosmosIds.encode(instance.nodeName()), "a", instance.nodeName(),
                NodeJobStatus.Free, offline ? "offline" : "free", offline, offline, false, false, 64, 0, 262144, 0, 0, 0,
                List.of(), lastBusyAt, clock.instant(), drainRequestedAt, "agent-h-pbs")));
    }

    private List<ScalerEvent> events(EventKind kind, String pool) {
        return fixture.eventsOf(kind).stream().filter(e -> e.pool().equals(pool)).toList();
    }

    @Test
    void aCapacityErrorInTheFirstScaleSetStartsTheNextInTheSameCycle() throws Exception {
        Scaler scaler = scaler(group(4, 4));
        cloud.failStarts("a", 1, false);
        fixture.queued("a", "j1", 16);

        cycle(scaler);

        assertEquals(0, fixture.active("a"));
        assertEquals(1, fixture.active("b"), "the job fell through to b at once");
        assertTrue(events(EventKind.START, "a").get(0).outcome().wire().startsWith("failed: AllocationFailed"));
        assertTrue(events(EventKind.START, "b").get(0).outcome().ok());
    }

    @Test
    void aJobThatDoesNotFitTheFirstVmSizeGoesToTheNextWithoutComplaint() throws Exception {
        Scaler scaler = scaler(group(4, 4));
        fixture.queued("a", "wide", 48);

        cycle(scaler);

        assertEquals(0, fixture.active("a"));
        assertEquals(1, fixture.active("b"));
        assertTrue(fixture.eventsOf(EventKind.UNSATISFIABLE).isEmpty(), "b can run it: nothing is unsatisfiable");
    }

    @Test
    void aJobNoPoolOfTheGroupFitsIsReportedByTheLast() throws Exception {
        Scaler scaler = scaler(group(4, 4));
        fixture.queued("a", "huge", 128);

        cycle(scaler);

        assertEquals(0, fixture.active("a") + fixture.active("b"));
        assertEquals(1, events(EventKind.UNSATISFIABLE, "b").size());
        assertTrue(events(EventKind.UNSATISFIABLE, "a").isEmpty());
    }

    @Test
    void jobsBeyondTheFirstPoolsMaxGoToTheNext() throws Exception {
        Scaler scaler = scaler(group(2, 4));
        for (int i = 0; i < 3; i++) {
            fixture.queued("a", "j" + i, 16);
        }

        cycle(scaler);

        assertEquals(2, fixture.active("a"));
        assertEquals(1, fixture.active("b"));
        assertTrue(events(EventKind.AT_MAX, "a").get(0).reason().contains("offered to pool b"));
    }

    @Test
    void aFallbackInBackoffLeavesTheJobsWithTheFirstPoolAndNothingElseStarts() throws Exception {
        Scaler scaler = scaler(group(4, 4));
        cloud.failStarts("a", 1, false);
        cloud.failStarts("b", 1, false);
        fixture.queued("a", "j1", 16);

        cycle(scaler);
        clock.advance(Duration.ofMinutes(1));
        cycle(scaler);

        assertEquals(0, fixture.active("a") + fixture.active("b"), "both in backoff: no call to either");
        assertEquals(1, events(EventKind.START, "a").size());
        assertEquals(1, events(EventKind.START, "b").size());
    }

    @Test
    void anIdleNodeOfTheFallbackTakesAQueuedJobBeforeAnyPoolStartsOne() throws Exception {
        Scaler scaler = scaler(group(4, 4));
        Instance b = cloud.instances("b").get(0);
        cloud.provider("b").start(List.of(b));
        clock.advance(Duration.ofMinutes(3));
        reportedInA(cloud.instances("b").get(0), false, clock.instant().minusSeconds(60), null);
        fixture.queued("a", "small", 16);

        cycle(scaler);

        assertEquals(0, fixture.active("a"), "b's idle node takes the job");
        assertEquals(1, fixture.active("b"));
        assertTrue(fixture.eventsOf(EventKind.START).isEmpty());
        assertTrue(fixture.eventsOf(EventKind.NODE_WITHOUT_INSTANCE).isEmpty(), "a knows the node is b's");
    }

    @Test
    void aFallbacksIdleNodeIsDrainedAndStoppedThroughItsOwnPool() throws Exception {
        Scaler scaler = scaler(group(4, 4));
        Instance b = cloud.instances("b").get(0);
        cloud.provider("b").start(List.of(b));
        clock.advance(Duration.ofMinutes(3));
        reportedInA(b, false, clock.instant().minus(Duration.ofMinutes(30)), null);

        cycle(scaler);

        DocumentKey drainKey = new DocumentKey("b", DrainDocument.idFor(b.nodeName()));
        DrainDocument drain = documents.read(drainKey, DrainDocument.class).orElseThrow().document();
        assertEquals(b.nodeName(), drain.name());

        clock.advance(Duration.ofMinutes(1));
        reportedInA(b, true, clock.instant().minus(Duration.ofMinutes(31)), drain.requestedAt());
        cycle(scaler);

        assertEquals(0, fixture.active("b"), "stopped once the agent showed it offline and empty, in a's partition");
        assertEquals(1, events(EventKind.STOP, "b").size());
        assertTrue(documents.all(DocumentType.DRAINS, DrainDocument.class).stream()
                .allMatch(d -> d.poolName().equals("b")));
    }
}
