package io.hpcscale.scaler.run;

import static io.hpcscale.scaler.run.ScalerFixture.pool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentKeys;
import io.hpcscale.common.store.EtagConflictException;
import io.hpcscale.common.store.ForwardingClusterLoadStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.ForwardingCloudProvider;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.documents.GrowthAsked;
import io.hpcscale.scaler.documents.InstanceRecord;
import io.hpcscale.scaler.documents.LeaseDocument;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.documents.StopKind;
import io.hpcscale.scaler.plan.EventKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the scaler remembers in the store, the lease that lets one scaler act, and pools that act in parallel. */
class ScalerMemoryTest {
    private final ScalerFixture fixture = new ScalerFixture();

    @Test
    void aStandbyDoesNothingUntilTheLeaseExpiresThenTakesOver() throws Exception {
        Scaler active = fixture.scaler(fixture.memory, false, "host-a", pool("a", 4));
        Scaler standby = fixture.scaler(fixture.memory, false, "host-b", pool("a", 4));
        fixture.agentReported("a");
        fixture.queued("a", "1", 16);
        assertTrue(active.runOnce(fixture.clock.instant()).lease().active());
        assertEquals(1, fixture.active("a"));

        fixture.queued("a", "2", 16);
        CycleOutcome waiting = standby.runOnce(fixture.clock.instant());
        assertTrue(waiting.standby());
        assertEquals("host-a:" + active.lease().self().pid(), waiting.lease().holder());
        assertTrue(waiting.pools().isEmpty(), "a standby plans nothing");
        assertEquals(1, fixture.active("a"), "and starts nothing");

        fixture.clock.advance(Duration.ofMinutes(3));
        fixture.agentReported("a");
        assertTrue(standby.runOnce(fixture.clock.instant()).lease().active(), "took over the expired lease");
        assertEquals(2, fixture.active("a"));
        assertTrue(active.runOnce(fixture.clock.instant()).standby(), "the old holder now stands by");
        assertEquals(2, fixture.active("a"));
        assertEquals(1, fixture.state("a").instance("a_2").map(r -> r.startedByHpcscale() ? 1 : 0).orElse(0),
                "the new holder recorded its start in the shared state");
    }

    @Test
    void aScalerThatCannotRenewItsLeaseStopsActingBeforeItCouldExpire() throws Exception {
        LeaseWritesFail store = new LeaseWritesFail(fixture.memory);
        Scaler scaler = fixture.scaler(store, false, pool("a", 4));
        fixture.agentReported("a");
        assertTrue(scaler.runOnce(fixture.clock.instant()).lease().active());

        store.failing = true;
        fixture.clock.advance(Duration.ofMinutes(1));
        fixture.agentReported("a");
        fixture.queued("a", "1", 16);
        CycleOutcome renewalFailed = scaler.runOnce(fixture.clock.instant());
        assertEquals(LeaseStatus.State.UNKNOWN, renewalFailed.lease().state());
        assertEquals(1, fixture.active("a"), "still within the lease it renewed a minute ago: it acts");

        fixture.clock.advance(Duration.ofSeconds(95));
        fixture.agentReported("a");
        fixture.queued("a", "2", 16);
        CycleOutcome lapsed = scaler.runOnce(fixture.clock.instant());
        assertTrue(lapsed.error() != null && lapsed.error().contains("the lease cannot be renewed"), lapsed.toString());
        assertEquals(1, fixture.active("a"), "2m35s after its last renewal (lease 3m, margin 30s) it does nothing");
    }

    @Test
    void aThrottleOnOnePoolHoldsBackEveryPoolOfTheSameAccount() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool("a", 4), pool("b", 4));
        fixture.cloud.throttle("a", 1, Duration.ofMinutes(3));
        fixture.agentReported("a", "b");
        fixture.queued("a", "1", 16);
        fixture.queued("b", "2", 16);
        CycleOutcome outcome = scaler.runOnce(fixture.clock.instant());
        assertEquals(0, fixture.active("a") + fixture.active("b"));
        assertTrue(outcome.pools().get(1).plan().instancesUnknownBecause().contains("asked not to be called until"),
                "pool b shares pool a's account and was not called");
        assertTrue(outcome.failed());

        fixture.clock.advance(Duration.ofMinutes(1));
        fixture.agentReported("a", "b");
        Scaler restarted = fixture.scaler(fixture.memory, false, pool("a", 4), pool("b", 4));
        fixture.clock.advance(Duration.ofMinutes(3));
        fixture.agentReported("a", "b");
        restarted.runOnce(fixture.clock.instant());
        assertEquals(2, fixture.active("a") + fixture.active("b"));
    }

    @Test
    void aRestartedScalerHonoursTheThrottleItsPredecessorWasGiven() throws Exception {
        Scaler first = fixture.scaler(fixture.memory, false, pool("a", 4));
        fixture.cloud.throttle("a", 1, Duration.ofMinutes(10));
        fixture.agentReported("a");
        fixture.queued("a", "1", 16);
        first.runOnce(fixture.clock.instant());
        assertNotNull(fixture.state("a").throttledUntil());

        fixture.clock.advance(Duration.ofMinutes(4));
        fixture.agentReported("a");
        // A scaler on another host takes over once it has seen the lease unrenewed for a whole lease (3 minutes).
        Scaler other = fixture.scaler(fixture.memory, false, "other-host", pool("a", 4));
        other.runOnce(fixture.clock.instant());
        fixture.clock.advance(Duration.ofMinutes(3));
        fixture.agentReported("a");
        CycleOutcome second = other.runOnce(fixture.clock.instant());
        assertTrue(second.pools().get(0).plan().instancesUnknownBecause().contains("asked not to be called"));
        assertEquals(0, fixture.active("a"));
    }

    @Test
    void aHalfSucceededBatchRecordsWhatDidStartAndBacksOff() throws Exception {
        Scaler scaler = fixture.scaler(fixture.memory, false, pool("a", 4));
        fixture.cloud.setCapacityLeft("a", 1);
        fixture.agentReported("a");
        for (int i = 1; i <= 3; i++) {
            fixture.queued("a", "j" + i, 16);
        }
        scaler.runOnce(fixture.clock.instant());
        assertEquals(1, fixture.active("a"));
        ScalerStateDocument state = fixture.state("a");
        assertTrue(state.instance("a_1").orElseThrow().booting());
        assertFalse(state.instance("a_2").map(InstanceRecord::startedByHpcscale).orElse(false));
        assertNull(state.instance("a_2").orElseThrow().pending(), "the failed start is no longer pending");
        assertTrue(state.inBackoff(fixture.clock.instant()));
        assertEquals(List.of("a_1"), fixture.eventsOf(EventKind.START).stream().filter(e -> e.outcome().ok())
                .flatMap(e -> e.instances().stream()).toList());
        assertEquals(2, fixture.eventsOf(EventKind.START).stream().filter(ScalerEvent::failed).count());
    }

    @Test
    void whatTheProviderTimesIsKeptInThePoolsStateAndGivenBackToTheProviderOfTheNextScaler() throws Exception {
        List<Map<String, GrowthAsked>> recalled = new ArrayList<>();
        fixture.interceptProviders(provider -> new ForwardingCloudProvider(provider) {
            private Map<String, GrowthAsked> growing = Map.of();

            @Override
            public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
                growing = Map.of("a-2", new GrowthAsked(fixture.clock.instant(), 3));
                return super.start(instances);
            }

            @Override
            public Map<String, GrowthAsked> growing() {
                return growing;
            }

            @Override
            public void recall(Map<String, GrowthAsked> growing) {
                recalled.add(growing);
                this.growing = growing;
            }
        });
        Scaler first = fixture.scaler(fixture.memory, false, pool("a", 4));
        fixture.agentReported("a");
        fixture.queued("a", "1", 16);
        first.runOnce(fixture.clock.instant());
        Map<String, GrowthAsked> asked = Map.of("a-2", new GrowthAsked(fixture.clock.instant(), 3));
        assertEquals(asked, fixture.state("a").growing());

        fixture.clock.advance(Duration.ofMinutes(1));
        fixture.agentReported("a");
        recalled.clear();
        fixture.scaler(fixture.memory, false, pool("a", 4)).runOnce(fixture.clock.instant());
        assertEquals(List.of(asked), recalled, "before the restarted scaler's listing");
    }

    @Test
    void whatIsAboutToBeAskedIsWrittenDownBeforeTheCall() throws Exception {
        List<InstanceRecord> seenDuringTheCall = new ArrayList<>();
        fixture.interceptProviders(provider -> new ForwardingCloudProvider(provider) {
            @Override
            public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
                seenDuringTheCall.add(fixture.state("a").instance(instances.get(0).id()).orElseThrow());
                return super.start(instances);
            }
        });
        Scaler scaler = fixture.scaler(fixture.memory, false, pool("a", 4));
        fixture.agentReported("a");
        fixture.queued("a", "1", 16);
        scaler.runOnce(fixture.clock.instant());
        InstanceRecord during = seenDuringTheCall.get(0);
        assertTrue(during.pending().start() && during.pending().at().equals(fixture.clock.instant()), "" + during);
        InstanceRecord after = fixture.state("a").instance("a_1").orElseThrow();
        assertNull(after.pending());
        assertEquals(fixture.clock.instant(), after.bootingSince());
    }

    @Test
    void aRestartedScalerStillStopsAFailedBootAtItsBootTimeout() throws Exception {
        fixture.cloud.addScaleSet("a", 6, "a-vm", Duration.ofMinutes(2));
        fixture.cloud.breakBoots("a", 1);
        Scaler first = fixture.scaler(fixture.memory, false, pool("a", 4));
        fixture.agentReported("a");
        fixture.queued("a", "1", 16);
        first.runOnce(fixture.clock.instant());
        fixture.clock.advance(Duration.ofMinutes(19));
        fixture.agentReported("a");
        first.runOnce(fixture.clock.instant());
        assertEquals(1, fixture.active("a"), "not yet past its boot timeout");

        Scaler restarted = fixture.scaler(fixture.memory, false, "other-host", pool("a", 4));
        restarted.runOnce(fixture.clock.instant());
        fixture.clock.advance(Duration.ofMinutes(4));
        fixture.agentReported("a");
        restarted.runOnce(fixture.clock.instant());
        assertEquals(List.of("a_1"), fixture.eventsOf(EventKind.BOOT_TIMEOUT).stream().filter(e -> e.outcome().ok())
                .flatMap(e -> e.instances().stream()).toList(), "its boot clock survived the restart");
        assertEquals(StopKind.BOOT_FAILURE, fixture.state("a").instance("a_1").orElseThrow().stopKind());
        assertEquals(1, fixture.state("a").consecutiveBootFailures());
    }

    @Test
    void anUnreadableStateLeavesItsPoolAloneWhileOthersCarryOn() throws Exception {
        ObjectNode broken = new io.hpcscale.common.codec.DocumentCodec().encode(ScalerStateDocument.empty("a"));
        broken.putArray("Instances");
        fixture.memory.upsertAll(List.of(broken));
        Scaler scaler = fixture.scaler(fixture.memory, false, pool("a", 4), pool("b", 4));
        fixture.agentReported("a", "b");
        fixture.queued("a", "1", 16);
        fixture.queued("b", "2", 16);
        CycleOutcome outcome = scaler.runOnce(fixture.clock.instant());
        assertEquals(0, fixture.active("a"), "not read as 'nothing remembered'");
        assertEquals(1, fixture.active("b"));
        assertTrue(outcome.pools().get(0).problem().contains("cannot be read"), outcome.pools().get(0).problem());
        assertTrue(outcome.failed());
        assertEquals(1, fixture.eventsOf(EventKind.STATE_UNAVAILABLE).size());
    }

    @Test
    void nothingIsAskedOfTheCloudWhenTheStateCannotBeWrittenFirst() throws Exception {
        StateWritesConflict store = new StateWritesConflict(fixture.memory);
        Scaler scaler = fixture.scaler(store, false, pool("a", 4));
        fixture.agentReported("a");
        fixture.queued("a", "1", 16);
        CycleOutcome outcome = scaler.runOnce(fixture.clock.instant());
        assertEquals(0, fixture.active("a"));
        assertTrue(fixture.eventsOf(EventKind.START).get(0).outcome().wire().startsWith("failed: not attempted: "
                + "another scaler changed the state"), fixture.eventsOf(EventKind.START).toString());
        assertTrue(outcome.failed());
    }

    @Test
    void aPoolBusyWithASlowCallIsSkippedWhileTheOthersAreActedOn() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        fixture.interceptProviders(provider -> new ForwardingCloudProvider(provider) {
            @Override
            public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
                if (instances.get(0).id().startsWith("a_")) {
                    entered.countDown();
                    release.await();
                }
                return super.start(instances);
            }
        });
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Scaler scaler = fixture.scaler(fixture.memory, false, "host", threads, pool("a", 4), pool("b", 4));
            fixture.agentReported("a", "b");
            fixture.queued("a", "1", 16);
            fixture.queued("b", "2", 16);
            CycleOutcome first = scaler.runCycle(fixture.clock.instant(), Duration.ofMillis(500));
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            assertNull(first.pools().get(0).plan(), "pool a is still in its start call");
            assertEquals(1, fixture.active("b"), "pool b was not held up by it");

            fixture.clock.advance(Duration.ofMinutes(1));
            fixture.agentReported("a", "b");
            CycleOutcome second = scaler.runCycle(fixture.clock.instant(), Duration.ofMillis(500));
            assertEquals(EventKind.BUSY, second.pools().get(0).events().get(0).kind());

            release.countDown();
            assertTrue(scaler.shutDown(Duration.ofSeconds(10)), "the call in flight finished");
            assertEquals(1, fixture.active("a"));
            assertTrue(fixture.state("a").instance("a_1").orElseThrow().booting(), "and was recorded");
        } finally {
            threads.shutdownNow();
        }
    }

    /** Every write of the lease fails while {@code failing}, as a store that went away would. */
    private static final class LeaseWritesFail extends ForwardingClusterLoadStore {
        volatile boolean failing;

        LeaseWritesFail(ClusterLoadStore delegate) {
            super(delegate);
        }

        @Override
        public String replaceIfMatch(ObjectNode document, String expectedEtag) {
            if (failing && DocumentKeys.of(document).equals(LeaseDocument.KEY)) {
                throw new StoreException("the store went away");
            }
            return super.replaceIfMatch(document, expectedEtag);
        }

        @Override
        public String describe() {
            return "a store whose lease writes fail";
        }
    }

    /** Every conditional write of a state document loses, as if another scaler had written it in between. */
    private static final class StateWritesConflict extends ForwardingClusterLoadStore {
        StateWritesConflict(ClusterLoadStore delegate) {
            super(delegate);
        }

        @Override
        public String create(ObjectNode document) {
            DocumentKey key = DocumentKeys.of(document);
            if (key.id().startsWith("state-")) {
                throw new EtagConflictException(key, "already exists");
            }
            return super.create(document);
        }

        @Override
        public String describe() {
            return "a store where another scaler always wins";
        }
    }
}
