package io.hpcscale.agent.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Why a pod waits, told as an Event on it, where {@code kubectl describe pod} lists it. */
class K8sWaitEventsTest {
    private static MockCluster cluster;
    private static K8sAdapter adapter;
    private static final SettableClock CLOCK = new SettableClock(Instant.parse("2026-11-27T05:00:00Z"));

    @BeforeAll
    static void start() {
        cluster = MockCluster.start(false);
        adapter = new K8sAdapter(cluster.admin, K8sTestSettings.of(Map.of()), CLOCK);
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void aWaitingPodGetsAnEventNamingItByKindNameAndUidAsKubectlDescribeLooksItUp() throws Exception {
        Pod pod = cluster.unschedulable(cluster.pod("batch", "solver-0", "64", "8Gi"));
        adapter.read();

        adapter.showWaitReason("batch/solver-0", "hpcscale: pool cpu is at its max of 16 nodes: jobs wait for its "
                + "nodes to free up");

        List<Event> events = cluster.admin.v1().events().inNamespace("batch").list().getItems();
        assertEquals(1, events.size());
        Event event = events.get(0);
        assertEquals("Pod", event.getInvolvedObject().getKind());
        assertEquals("v1", event.getInvolvedObject().getApiVersion());
        assertEquals("solver-0", event.getInvolvedObject().getName());
        assertNotNull(pod.getMetadata().getUid(), "the API server gives every object a uid");
        assertEquals(pod.getMetadata().getUid(), event.getInvolvedObject().getUid());
        assertEquals(WaitEvents.REASON, event.getReason());
        assertEquals("Warning", event.getType());
        assertTrue(event.getMessage().startsWith("hpcscale: pool cpu is at its max"), event.getMessage());
        assertEquals("hpcscale-agent", event.getSource().getComponent());
        assertEquals(Duration.ofMinutes(30), adapter.waitReasonLasts(), "posted again before the hour they last");

        adapter.showWaitReason("batch/solver-0", null);
        assertEquals(1, cluster.admin.v1().events().inNamespace("batch").list().getItems().size(),
                "an event cannot be taken back: nothing more is posted");
    }

    @Test
    void aJobTheLastReadDidNotSeeIsAClearFailure() {
        SchedulerCommandException e = assertThrows(SchedulerCommandException.class,
                () -> adapter.showWaitReason("batch/gone", "hpcscale: anything"));
        assertTrue(e.getMessage().contains("not in the last read"), e.getMessage());
    }
}
