package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.Programs;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * MPI jobs that need all their nodes at once in one placement group, on an InfiniBand pool of the simulated cloud
 * whose capacity runs out part way through a start, as an Azure batch that half-succeeds.
 */
class GangJobsTest {
    private final ScalerFixture fixture = new ScalerFixture();
    private final DocumentStore documents = new DocumentStore(fixture.memory);

    private PoolConfig mpiPool(String... extra) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.mpi.provider", "simulated");
        values.put("pool.mpi.cpus", "16");
        values.put("pool.mpi.memoryMb", "65536");
        values.put("pool.mpi.max", "10");
        values.put("pool.mpi.node.infiniband", "true");
        values.put("pool.mpi.simulated.bootDelay", "2m");
        values.put("pool.mpi.gangTimeout", "10m");
        values.put("pool.mpi.idleTimeout", "1m");
        values.put("pool.mpi.capacityBackoff", "1h");
        for (int i = 0; i + 1 < extra.length; i += 2) {
            values.put(extra[i], extra[i + 1]);
        }
        return PoolConfigs.fromSettings(new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER))
                .get("mpi");
    }

    private void gang(String id, int nodes) {
        documents.upsert(List.of(new JobDocument(id, "mpi", id, "mpi", JobState.Queued, nodes,
                List.of(new Chunk(nodes, 16, 0, 0)), Placement.scatter, true, fixture.clock.instant(),
                "agent-h-pbs")));
    }

    /**
     * What an agent would write: every node whose instance is up, free since it was first seen, or offline by
     * hpcscale once its drain is asked (the agent carries drains out); nodes gone deleted.
     */
    private void agentReads() {
        Set<String> up = new HashSet<>(fixture.cloud.upNodes("mpi"));
        Map<String, DrainDocument> drains = new java.util.HashMap<>();
        documents.inPool(DocumentType.DRAINS, "mpi", DrainDocument.class).forEach(d -> drains.put(d.name(), d));
        List<DocumentKey> gone = new ArrayList<>();
        for (VmDocument vm : documents.inPool(DocumentType.VMS, "mpi", VmDocument.class)) {
            if (!up.contains(vm.name())) {
                gone.add(vm.key());
            }
        }
        documents.delete(gone);
        List<VmDocument> vms = new ArrayList<>();
        for (String node : up) {
            DrainDocument drain = drains.get(node);
            boolean offline = drain != null;
            Instant idleSince = documents.read(new DocumentKey("mpi", CosmosIds.encode(node)), VmDocument.class)
                    .map(v -> v.document().lastBusyAt()).orElse(fixture.clock.instant());
            vms.add(new VmDocument(CosmosIds.encode(node), "mpi", node, NodeJobStatus.Free,
                    offline ? "offline" : "free", offline, offline, false, false, 16, 0, 65536, 0, 0, 0, List.of(),
                    idleSince, fixture.clock.instant(), offline ? drain.requestedAt() : null, "agent-h-pbs"));
        }
        documents.upsert(vms);
        fixture.agentReported("mpi");
    }

    private void minutes(Scaler scaler, int minutes) throws InterruptedException {
        for (int i = 0; i < minutes; i++) {
            agentReads();
            scaler.runOnce(fixture.clock.instant());
            fixture.clock.advance(Duration.ofMinutes(1));
        }
    }

    private long running() {
        return fixture.cloud.instances("mpi").stream().filter(i -> i.state().active()).count();
    }

    @Test
    void aGangOfEightInAPoolThatCanOnlyStartSixEndsWithNoneRunningAndAnEvent() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, mpiPool());
        fixture.cloud.setCapacityLeft("mpi", 6);
        gang("mpi-8", 8);

        minutes(scaler, 1);
        assertEquals(6, running(), "eight asked at once; the cloud had six");
        assertEquals(1, fixture.state("mpi").gangs().size(), "the gang's clock is in the pool's state");

        minutes(scaler, 25);

        assertEquals(0, running(), "the six that came were given back, not kept waiting for two that never will");
        List<ScalerEvent> incomplete = fixture.eventsOf(EventKind.GANG_INCOMPLETE);
        assertEquals(1, incomplete.size());
        assertTrue(incomplete.get(0).reason().startsWith("job mpi-8 needs 8 nodes at once; they were asked for at "),
                incomplete.get(0).reason());
        assertTrue(incomplete.get(0).reason().endsWith("have not all come up within gangTimeout 10m: the nodes it "
                + "has are given back, and it is tried again after 1h"), incomplete.get(0).reason());
    }

    @Test
    void aGangWhoseNodesAllComeRunsAndItsClockIsForgotten() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, mpiPool());
        gang("mpi-4", 4);

        minutes(scaler, 4);
        assertEquals(4, running());
        documents.delete(List.of(new DocumentKey("mpi", "mpi-4")));
        minutes(scaler, 1);

        assertTrue(fixture.state("mpi").gangs().isEmpty(), "the job left the queue: nothing to time");
        assertTrue(fixture.eventsOf(EventKind.GANG_INCOMPLETE).isEmpty());
    }

    @Test
    void aGangGivenBackIsTriedAgainAfterTheBackoffAndAScalerRestartKeepsTheClock() throws Exception {
        PoolConfig pool = mpiPool("pool.mpi.capacityBackoff", "20m");
        Scaler first = fixture.scaler(fixture.memory, false, pool);
        fixture.cloud.setCapacityLeft("mpi", 2);
        gang("mpi-3", 3);
        minutes(first, 5);
        assertEquals(2, running());

        Scaler restarted = fixture.scaler(fixture.memory, false, pool);
        minutes(restarted, 10);
        assertEquals(1, fixture.eventsOf(EventKind.GANG_INCOMPLETE).size(), "the restarted scaler kept the time");
        assertEquals(0, running());

        fixture.cloud.setCapacityLeft("mpi", null);
        minutes(restarted, 20);
        assertEquals(3, running(), "after the backoff the gang is asked for again, and now gets all three");
    }

    @Test
    void aGangWhoseNodesAreAllInServiceIsNeverGivenBackHoweverLongTheSchedulerTakes() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, mpiPool());
        gang("slow-to-start", 4);

        minutes(scaler, 30);

        assertEquals(4, running(), "all four came; the job is the scheduler's to start");
        assertTrue(fixture.state("mpi").gangs().isEmpty(), "the clock stopped once they were in service");
        assertTrue(fixture.eventsOf(EventKind.GANG_INCOMPLETE).isEmpty());
    }

    @Test
    void aGangQueuedWhileThePoolIsInBackoffStartsNoClock() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, mpiPool("pool.mpi.capacityBackoff", "30m"));
        fixture.cloud.failStarts("mpi", 1, false);
        gang("first", 2);
        minutes(scaler, 1);
        assertTrue(fixture.state("mpi").inBackoff(fixture.clock.instant()));
        documents.delete(List.of(new DocumentKey("mpi", "first")));
        gang("second", 2);

        minutes(scaler, 5);

        assertTrue(fixture.state("mpi").gangs().keySet().stream().noneMatch("second"::equals),
                "nothing is started for it while the pool backs off: no time runs against it");
    }

    @Test
    void aJobOfSeveralNodesOnAPoolWithoutInfinibandIsNoGang() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, mpiPool("pool.mpi.node.infiniband", "false"));
        fixture.cloud.setCapacityLeft("mpi", 6);
        gang("spread-8", 8);

        minutes(scaler, 15);

        assertTrue(fixture.state("mpi").gangs().isEmpty());
        assertTrue(fixture.eventsOf(EventKind.GANG_INCOMPLETE).isEmpty());
        assertEquals(6, running(), "its nodes are kept for it as before");
    }

}
