package io.hpcscale.simulator;

import static io.hpcscale.simulator.Clusters.cluster;
import static io.hpcscale.simulator.Clusters.pool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentKeys;
import io.hpcscale.common.store.ForwardingClusterLoadStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.store.StoredDocument;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.ForwardingCloudProvider;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.InstanceResults;
import io.hpcscale.scaler.documents.LeaseDocument;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.run.ScalerEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The scaler killed (as SIGKILL would: mid-cycle, nothing saved in memory) at each step of the boot and drain
 * handshake, and started again: it converges. Every job runs, no instance is stopped under a job, a failed boot is
 * still stopped at its boot timeout, no action is doubled, and the pool ends at its min with nothing forgotten.
 */
class CrashRestartTest {
    /** Where the scaler dies. */
    enum Step {
        BEFORE_START,
        AFTER_START,
        AFTER_DRAIN_REQUEST,
        AFTER_AGENT_OFFLINE,
        BEFORE_STOP,
        AFTER_STOP
    }

    /** What SIGKILL does to a thread: it ends it where it stands. */
    private static final class Killed extends Error {
        Killed(Step step) {
            super("killed " + step);
        }
    }

    private static final int KILLS = 6;
    private Step step;
    private int kills;
    private boolean offlineSeen;

    private void maybeKill(Step at) {
        if (step == at && kills < KILLS) {
            kills++;
            throw new Killed(at);
        }
    }

    @ParameterizedTest
    @EnumSource(Step.class)
    void aScalerKilledAtEachStepConvergesWhenStartedAgain(Step at) throws Exception {
        this.step = at;
        SettableClock clock = new SettableClock(Clusters.START);
        SimulatedCluster cluster = new SimulatedCluster(clock, new KillingStore(new InMemoryClusterLoadStore(clock)),
                new SimulatedCluster.Spec(List.of(pool(0, 4, Duration.ofMinutes(2))), 4, Duration.ofMinutes(1),
                        Duration.ofMinutes(6), Duration.ofDays(1)));
        ActionAudit audit = new ActionAudit(cluster.cloud(), clock);
        cluster.interceptProviders(provider -> new KillingProvider(audit.watch(provider, "p")));
        List<ScalerEvent> events = new ArrayList<>();
        cluster.events().addListener(events::add);
        cluster.cloud().breakBoots("p", 1);
        int restarts = 0;
        for (int minute = 0; minute < 180; minute++) {
            if (minute % 45 == 0 && minute < 180 - 45) {
                for (int i = 0; i < 4; i++) {
                    cluster.scheduler().submit(new SimJob("j" + minute + "-" + i, "p", clock.instant(), 1,
                            Duration.ofMinutes(10 + 5 * i), Duration.ofHours(1), false));
                }
            }
            cluster.agentCycle();
            offlineSeen |= cluster.documents().all(DocumentType.VMS, VmDocument.class).stream()
                    .anyMatch(VmDocument::offlineByHpcscale);
            try {
                cluster.scalerCycle();
            } catch (Killed killed) {
                cluster.restartScaler();
                restarts++;
            }
            clock.advance(Duration.ofMinutes(1));
        }
        assertEquals(Math.min(KILLS, kills), restarts);
        assertTrue(kills > 0, "the scaler was killed at " + at);
        assertTrue(cluster.scheduler().violations().isEmpty(), cluster.scheduler().violations().toString());
        assertEquals(12, cluster.scheduler().finishedJobs().size(), "every job ran");
        assertTrue(audit.doubled().isEmpty(), "doubled: " + audit.doubled());
        assertEquals(0, cluster.cloud().activeInstances(), "back to min 0: no instance forgotten");
        Instant brokenStarted = firstAt(audit.started(), "p_1");
        Instant brokenStopped = firstAt(audit.stopped(), "p_1");
        Duration late = Duration.between(brokenStarted.plus(Duration.ofMinutes(20)), brokenStopped);
        // One cycle to ask for its node to be taken out of service, one for the agent to do it, one per kill, and
        // the agent's ten minutes before it reads drain requests anyway when a kill left a request unannounced.
        assertTrue(late.compareTo(Duration.ofMinutes(kills + 2L + 10)) <= 0, "the broken boot (p_1, started "
                + brokenStarted + ") was stopped at its boot timeout of 20m, late by no more than the agent's cycle "
                + "that takes its node out of service and the cycles in which the scaler was killed: "
                + brokenStopped);
        System.out.printf("killed %d times %s: %d starts, %d stops, 0 doubled, 0 violations, failed boot stopped "
                + "%ds after its boot timeout%n", kills, at, audit.starts(), audit.stops(), late.toSeconds());
    }

    private static Instant firstAt(List<String> calls, String instance) {
        return calls.stream().filter(c -> c.startsWith(instance + " at ")).findFirst()
                .map(c -> Instant.parse(c.substring((instance + " at ").length()))).orElseThrow();
    }

    private final class KillingProvider extends ForwardingCloudProvider {
        KillingProvider(io.hpcscale.scaler.cloud.CloudProvider delegate) {
            super(delegate);
        }

        @Override
        public InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException {
            maybeKill(Step.BEFORE_START);
            InstanceResults results = super.start(instances);
            maybeKill(Step.AFTER_START);
            return results;
        }

        @Override
        public InstanceResults stop(List<Instance> instances, StopAction action)
                throws CloudException, InterruptedException {
            maybeKill(Step.BEFORE_STOP);
            InstanceResults results = super.stop(instances, action);
            maybeKill(Step.AFTER_STOP);
            return results;
        }
    }

    /** Dies just after a drain request is written, or when the scaler begins the cycle after an agent's offline. */
    private final class KillingStore extends ForwardingClusterLoadStore {
        KillingStore(ClusterLoadStore delegate) {
            super(delegate);
        }

        @Override
        public void upsertAll(Collection<ObjectNode> documents) {
            super.upsertAll(documents);
            if (documents.stream().anyMatch(d -> "drains".equals(DocumentKeys.type(d)))) {
                maybeKill(Step.AFTER_DRAIN_REQUEST);
            }
        }

        @Override
        public Optional<StoredDocument> read(io.hpcscale.common.model.DocumentKey key) {
            if (offlineSeen && key.equals(LeaseDocument.KEY)) {
                maybeKill(Step.AFTER_AGENT_OFFLINE);
            }
            return super.read(key);
        }

        @Override
        public String describe() {
            return "a store that kills the scaler at a chosen step";
        }
    }
}
