package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.ForwardingClusterLoadStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.store.PoolChanges;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoredDocument;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.documents.EventDocument;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scaler's cycle with fakes: documents written by hand, instances in a simulated cloud. */
class ScalerTest {
    private final ScalerFixture fixture = new ScalerFixture();
    private final SettableClock clock = fixture.clock;
    private final InMemoryClusterLoadStore memory = fixture.memory;
    private final SimulatedCloud cloud = fixture.cloud;

    private static PoolConfig pool(String name, int max) {
        return ScalerFixture.pool(name, max);
    }

    private Scaler scaler(ClusterLoadStore store, boolean dryRun, PoolConfig... pools) {
        return fixture.scaler(store, dryRun, pools);
    }

    private void agentReported(String... pools) {
        fixture.agentReported(pools);
    }

    private void queued(String pool, String id, int cpus) {
        fixture.queued(pool, id, cpus);
    }

    private long active(String pool) {
        return fixture.active(pool);
    }

    private List<ScalerEvent> eventsOf(EventKind kind) {
        return fixture.eventsOf(kind);
    }

    @Test
    void recordsEveryActionAndARefusalOnlyWhenItIsNew() throws Exception {
        Scaler scaler = scaler(memory, false, pool("a", 4));
        agentReported("a");
        queued("a", "1", 16);
        queued("a", "huge", 64);
        scaler.runOnce(clock.instant());
        clock.advance(Duration.ofMinutes(1));
        agentReported("a");
        scaler.runOnce(clock.instant());
        assertEquals(1, eventsOf(EventKind.START).size());
        assertEquals(1, eventsOf(EventKind.UNSATISFIABLE).size(), "the same refusal is not recorded every cycle");
        List<EventDocument> stored = new DocumentStore(memory).inPool(DocumentType.EVENTS, "a", EventDocument.class);
        assertEquals(2, stored.size());
        assertTrue(stored.stream().anyMatch(e -> e.action().equals("start") && e.outcome().equals("ok")
                && e.reason().equals("1 queued job needs 1 more node") && e.ttlSeconds() == 604800));
        assertTrue(stored.get(0).id().compareTo(stored.get(1).id()) != 0);
    }

    @Test
    void aDryRunLogsItsDecisionsAndTouchesNothing() throws Exception {
        Scaler scaler = scaler(memory, true, pool("a", 4));
        agentReported("a");
        queued("a", "1", 16);
        long written = memory.documentsWritten();
        scaler.runOnce(clock.instant());
        assertEquals(0, active("a"));
        assertEquals(written, memory.documentsWritten(), "no drain, no event document");
        assertEquals(Outcome.DRY_RUN, eventsOf(EventKind.START).get(0).outcome());
    }

    @Test
    void aCapacityErrorBacksOffThatPoolWhileOthersCarryOn() throws Exception {
        Scaler scaler = scaler(memory, false, pool("a", 4), pool("b", 4));
        cloud.failStarts("a", 1, false);
        agentReported("a", "b");
        queued("a", "1", 16);
        queued("b", "2", 16);
        scaler.runOnce(clock.instant());
        assertEquals(0, active("a"));
        assertEquals(1, active("b"));
        assertTrue(eventsOf(EventKind.START).stream().anyMatch(e -> e.pool().equals("a")
                && e.outcome().wire().startsWith(
                "failed: AllocationFailed")));
        assertTrue(eventsOf(EventKind.BACKOFF).stream().anyMatch(e -> e.pool().equals("a")));

        clock.advance(Duration.ofMinutes(5));
        agentReported("a", "b");
        scaler.runOnce(clock.instant());
        assertEquals(0, active("a"), "still in backoff");
        clock.advance(Duration.ofMinutes(6));
        agentReported("a", "b");
        scaler.runOnce(clock.instant());
        assertEquals(1, active("a"), "tried again once the backoff passed");
    }

    @Test
    void aQuotaRefusalIsRetriedWithWhatFits() throws Exception {
        Scaler scaler = scaler(memory, false, pool("a", 6));
        cloud.setQuota("a", 2);
        agentReported("a");
        for (int i = 0; i < 4; i++) {
            queued("a", "j" + i, 16);
        }
        scaler.runOnce(clock.instant());
        assertEquals(2, active("a"));
        assertTrue(eventsOf(EventKind.START).stream()
                .anyMatch(e -> e.outcome().wire().startsWith("failed: quota; retrying with the 2 that fit")));
    }

    @Test
    void aQuotaRefusalThatDoesNotSayWhatFitsIsRetriedWithHalf() throws Exception {
        Scaler scaler = scaler(memory, false, pool("a", 6));
        cloud.failStarts("a", 1, true);
        agentReported("a");
        for (int i = 0; i < 4; i++) {
            queued("a", "j" + i, 16);
        }
        scaler.runOnce(clock.instant());
        assertEquals(2, active("a"));
        assertTrue(eventsOf(EventKind.START).stream()
                .anyMatch(e -> e.outcome().wire().equals("failed: quota; retrying with 2 instances")));
    }

    @Test
    void aThrottledPoolIsLeftAloneUntilRetryAfter() throws Exception {
        Scaler scaler = scaler(memory, false, pool("a", 4));
        cloud.throttle("a", 1, Duration.ofMinutes(3));
        agentReported("a");
        queued("a", "1", 16);
        scaler.runOnce(clock.instant());
        assertEquals(0, active("a"));
        assertTrue(eventsOf(EventKind.INSTANCES_UNKNOWN).get(0).reason().contains("429"));
        clock.advance(Duration.ofMinutes(1));
        agentReported("a");
        scaler.runOnce(clock.instant());
        assertEquals(0, active("a"), "no call before Retry-After, although the cloud would answer now");
        clock.advance(Duration.ofMinutes(3));
        agentReported("a");
        scaler.runOnce(clock.instant());
        assertEquals(1, active("a"));
    }

    @Test
    void aStopIsRefusedWhenAFreshReadNoLongerShowsTheNodeDrainedAndEmpty() throws Exception {
        PoolConfig config = pool("a", 4);
        Instant requestedAt = clock.instant();
        DocumentStore documents = new DocumentStore(memory);
        cloud.addScaleSet("a", 1, "a-vm", Duration.ZERO);
        Instance instance = cloud.instances("a").get(0);
        cloud.provider("a").start(List.of(instance));
        documents.upsert(List.of(DrainDocument.request("a", "a-vm001", "idle", requestedAt),
                vm("a-vm001", NodeJobStatus.Busy, List.of("late"), requestedAt)));
        VmDocument drainedAndEmpty = vm("a-vm001", NodeJobStatus.Free, List.of(), requestedAt);
        ClusterLoadStore staleQueries = new StaleVmQueries(memory, documents.codec().encode(drainedAndEmpty));
        Scaler scaler = scaler(staleQueries, false, config);
        agentReported("a");
        scaler.runOnce(clock.instant());
        assertEquals(1, active("a"));
        assertEquals(Outcome.refused("the agent does not show it drained and empty since the drain request"),
                eventsOf(EventKind.STOP).get(0).outcome());
    }

    @Test
    void aBootTimeoutStopIsRefusedWhenAFreshReadListsAJobOnTheNode() throws Exception {
        cloud.addScaleSet("a", 1, "a-vm", Duration.ofMinutes(2));
        DocumentStore documents = new DocumentStore(memory);
        Instant drainedAt = clock.instant().plus(Duration.ofMinutes(20));
        VmDocument downAndEmpty = downVm(List.of(), drainedAt);
        ClusterLoadStore staleQueries = new StaleVmQueries(memory, documents.codec().encode(downAndEmpty));
        Scaler scaler = scaler(staleQueries, false, pool("a", 4));
        agentReported("a");
        queued("a", "1", 16);
        scaler.runOnce(clock.instant());
        assertEquals(1, eventsOf(EventKind.START).size());

        documents.upsert(List.of(downVm(List.of("1"), drainedAt),
                DrainDocument.request("a", "a-vm001", "its node did not report", drainedAt)));
        clock.advance(Duration.ofMinutes(21));
        agentReported("a");
        scaler.runOnce(clock.instant());
        assertTrue(cloud.instances("a").get(0).state().active(), "the instance the job is listed on still runs");
        assertEquals(Outcome.refused("the scheduler lists a job on its node"),
                eventsOf(EventKind.BOOT_TIMEOUT).get(0).outcome());
    }

    @Test
    void aStartIsRefusedWhenAFreshReadShowsAnAdministratorMarkedTheNodeSinceThePlansRead() throws Exception {
        cloud.addScaleSet("a", 1, "a-vm", Duration.ZERO);
        DocumentStore documents = new DocumentStore(memory);
        documents.upsert(List.of(stoppedNode("down,offline", true)));
        ClusterLoadStore staleQueries = new StaleVmQueries(memory,
                documents.codec().encode(stoppedNode("down", false)));
        Scaler scaler = scaler(staleQueries, false, pool("a", 4));
        agentReported("a");
        queued("a", "1", 16);
        scaler.runOnce(clock.instant());
        assertEquals(0, active("a"), "the node an administrator holds offline stays stopped");
        assertEquals(Outcome.refused("an administrator holds its node a-vm001 offline (down,offline): hpcscale "
                + "leaves it as it is"), eventsOf(EventKind.START).get(0).outcome());
    }

    @Test
    void aHibernatedNodeOfACheckedPoolResumesOnlyOnceItsLastCheckIsForgotten() throws Exception {
        DocumentStore documents = hibernatedNodeWithAPassedCheck();
        Scaler scaler = scaler(memory, false, checkedPool());
        agentReported("a");
        queued("a", "1", 16);

        scaler.runOnce(clock.instant());

        assertEquals(1, active("a"));
        assertTrue(documents.read(HealthDocument.keyFor("a-vm001"), HealthDocument.class).isEmpty(),
                "forgotten: the resumed node serves once its check has run again, not on the last boot's");
    }

    @Test
    void aHibernatedNodeWhoseLastCheckCannotBeForgottenIsNotResumed() throws Exception {
        DocumentStore documents = hibernatedNodeWithAPassedCheck();
        ClusterLoadStore healthDeletesFail = new ForwardingClusterLoadStore(memory) {
            @Override
            public void deleteAll(Collection<DocumentKey> keys) {
                if (keys.stream().anyMatch(k -> k.id().startsWith("health-"))) {
                    throw new StoreException("the store went away");
                }
                super.deleteAll(keys);
            }
        };
        Scaler scaler = scaler(healthDeletesFail, false, checkedPool());
        agentReported("a");
        queued("a", "1", 16);

        scaler.runOnce(clock.instant());

        assertEquals(0, active("a"));
        assertTrue(documents.read(HealthDocument.keyFor("a-vm001"), HealthDocument.class).isPresent());
        assertTrue(eventsOf(EventKind.START).get(0).outcome().detail().contains("cannot be forgotten before it "
                + "resumes"), eventsOf(EventKind.START).toString());
    }

    @Test
    void statusCountsHibernatedInstancesApartFromStoppedOnes() throws Exception {
        hibernatedNodeWithAPassedCheck();
        cloud.addScaleSet("b", 2, "b-vm", Duration.ZERO);
        Scaler scaler = scaler(memory, false, checkedPool(), pool("b", 2));
        agentReported("a", "b");

        List<PoolCensus> census = scaler.planOnly(clock.instant()).pools().stream().map(PoolOutcome::census).toList();

        assertEquals(1, census.get(0).count(InstanceCategory.HIBERNATED));
        assertEquals(0, census.get(0).count(InstanceCategory.STOPPED));
        assertEquals(0, census.get(1).count(InstanceCategory.HIBERNATED));
        assertEquals(2, census.get(1).count(InstanceCategory.STOPPED));
    }

    private static PoolConfig checkedPool() {
        return PoolConfigs.withDefaults("a", new VmShape(16, 65536, 0), 4, java.util.Map.of("healthCheck",
                "/usr/sbin/nhc", "stopAction", "hibernate"));
    }

    /** Pool a's one instance, hibernated, and its node's check of the boot before, passed. */
    private DocumentStore hibernatedNodeWithAPassedCheck() throws Exception {
        cloud.addScaleSet("a", 1, "a-vm", Duration.ZERO);
        List<Instance> instances = cloud.provider("a").list();
        cloud.provider("a").start(instances);
        cloud.provider("a").stop(instances, StopAction.HIBERNATE);
        assertTrue(cloud.provider("a").list().get(0).hibernated());
        DocumentStore documents = new DocumentStore(memory);
        documents.upsert(List.of(HealthDocument.of("a-vm001", HealthDocument.State.PASSED, "ok",
                clock.instant().minus(Duration.ofHours(1)))));
        return documents;
    }

    /** The node of a stopped instance as the agent shows it: down, and offline by an administrator or not. */
    private VmDocument stoppedNode(String schedulerState, boolean offline) {
        return new VmDocument("a-vm001", "a", "a-vm001", NodeJobStatus.Free, schedulerState, offline, false, true,
                false, 16, 0, 65536, 0, 0, 0, List.of(), clock.instant().minus(Duration.ofHours(1)), clock.instant(),
                null, "agent-h-pbs");
    }

    private VmDocument vm(String name, NodeJobStatus status, List<String> jobs, Instant drainRequestedAt) {
        return new VmDocument(name, "a", name, status, "offline", true, true, false, false, 16, jobs.isEmpty() ? 0 : 16,
                65536, 0, 0, 0, jobs, clock.instant().minus(Duration.ofHours(1)), clock.instant(), drainRequestedAt,
                "agent-h-pbs");
    }

    /** The node down and taken out of service by hpcscale, as the agent shows a failed boot's node. */
    private VmDocument downVm(List<String> jobs, Instant drainRequestedAt) {
        return new VmDocument("a-vm001", "a", "a-vm001", jobs.isEmpty() ? NodeJobStatus.Free : NodeJobStatus.Busy,
                "down,offline", true, true, true, false, 16, jobs.isEmpty() ? 0 : 16, 65536, 0, 0, 0, jobs, null,
                clock.instant(), drainRequestedAt, "agent-h-pbs");
    }

    /** A store whose queries return an older vm document than its point reads: the world changed mid-cycle. */
    private static final class StaleVmQueries extends ForwardingClusterLoadStore {
        private final ObjectNode staleVm;

        StaleVmQueries(ClusterLoadStore delegate, ObjectNode staleVm) {
            super(delegate);
            this.staleVm = staleVm;
        }

        @Override
        public List<StoredDocument> queryPool(String poolName, java.util.Set<DocumentType> types) {
            List<StoredDocument> fresh = super.queryPool(poolName, types);
            List<StoredDocument> stale = new ArrayList<>(fresh.stream()
                    .filter(d -> !"vms".equals(d.json().path("Type").asText())).toList());
            if (types.contains(DocumentType.VMS) && poolName.equals(staleVm.path("PoolName").asText())) {
                stale.add(new StoredDocument(staleVm, "\"stale\""));
            }
            return stale;
        }

        @Override
        public PoolChanges changesSince(String poolName, java.util.Set<DocumentType> types, long position) {
            return PoolChanges.whole(queryPool(poolName, types), PoolChanges.START);
        }

        @Override
        public String describe() {
            return "stale-query store";
        }
    }
}
