package io.hpcscale.agent.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.hpcscale.common.agent.OfflineMark;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.time.SettableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Draining a node the HPC way, without ever touching what someone else set on it. */
class K8sDrainTest {
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

    @AfterEach
    void clear() {
        cluster.clear();
    }

    private Node get(String name) {
        return cluster.admin.nodes().withName(name).get();
    }

    private SchedulerNode read(String name) throws Exception {
        return adapter.read().nodes().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aDrainCordonsTaintsAndSaysWhyAndWhenAndRunningPodsAreLeftToEnd() throws Exception {
        cluster.node("vm1", "cpu", 16, "64Gi");
        cluster.running(cluster.pod("batch", "solver", "4", "8Gi"), "vm1");

        adapter.offline("vm1", "idle for 5m");

        Node drained = get("vm1");
        assertTrue(drained.getSpec().getUnschedulable());
        assertEquals(List.of("hpcscale.io/drain"), drained.getSpec().getTaints().stream().map(Taint::getKey).toList());
        assertEquals("NoSchedule", drained.getSpec().getTaints().get(0).getEffect());
        assertEquals("hpcscale: idle for 5m", drained.getMetadata().getAnnotations().get(DrainMarks.WHY));
        assertEquals(CLOCK.instant().toString(), drained.getMetadata().getAnnotations().get(DrainMarks.AT));
        assertEquals("Running", cluster.admin.pods().inNamespace("batch").withName("solver").get().getStatus()
                .getPhase(), "nothing is evicted");
        assertEquals(OfflineMark.HPCSCALE, read("vm1").offline());
    }

    @Test
    void aDrainedNodeIsBusyWhileItSettlesSoAPodBoundJustBeforeShowsFirst() throws Exception {
        cluster.node("vm1", "cpu", 16, "64Gi");
        adapter.offline("vm1", "idle");
        assertEquals(NodeJobStatus.Busy, read("vm1").jobStatus(), "within agent.k8s.drainSettle");
        CLOCK.advance(Duration.ofSeconds(11));
        assertEquals(NodeJobStatus.Free, read("vm1").jobStatus());
    }

    @Test
    void bringingBackLiftsOnlyOurMarksAndAnotherTaintStays() throws Exception {
        cluster.node("vm1", "cpu", 16, "64Gi");
        Taint gpuOnly = new TaintBuilder().withKey("nvidia.com/gpu").withValue("present").withEffect("NoSchedule")
                .build();
        cluster.admin.nodes().withName("vm1").edit(n -> {
            n.getSpec().setTaints(List.of(gpuOnly));
            n.getMetadata().setAnnotations(Map.of("team", "ml"));
            return n;
        });
        adapter.offline("vm1", "idle");
        adapter.offline("vm1", "idle again");
        assertEquals(2, get("vm1").getSpec().getTaints().size(), "a second drain changes nothing");

        adapter.bringBack("vm1");

        Node back = get("vm1");
        assertEquals(List.of(gpuOnly), back.getSpec().getTaints());
        assertFalse(Boolean.TRUE.equals(back.getSpec().getUnschedulable()));
        assertEquals(Map.of("team", "ml"), back.getMetadata().getAnnotations());
        assertEquals(OfflineMark.NONE, read("vm1").offline());
    }

    @Test
    void aNodeAnAdministratorCordonedIsNeitherDrainedNorUncordoned() throws Exception {
        cluster.node("vm1", "cpu", 16, "64Gi");
        cluster.admin.nodes().withName("vm1").edit(n -> {
            n.getSpec().setUnschedulable(true);
            return n;
        });
        assertEquals(OfflineMark.OTHER, read("vm1").offline());

        SchedulerCommandException refused = assertThrows(SchedulerCommandException.class,
                () -> adapter.offline("vm1", "idle"));
        assertTrue(refused.getMessage().contains("cordoned, and not by hpcscale"), refused.getMessage());
        adapter.bringBack("vm1");

        Node held = get("vm1");
        assertTrue(held.getSpec().getUnschedulable(), "their cordon stays");
        assertTrue(held.getSpec().getTaints().isEmpty(), "no taint of ours: " + held.getSpec().getTaints());
        assertEquals(OfflineMark.OTHER, read("vm1").offline());
    }

    @Test
    void aDrainedNodeWhoseDrainTimeCannotBeReadIsBusyRatherThanFree() throws Exception {
        cluster.node("vm1", "cpu", 16, "64Gi");
        adapter.offline("vm1", "idle");
        cluster.admin.nodes().withName("vm1").edit(n -> {
            n.getMetadata().getAnnotations().put(DrainMarks.AT, "yesterday");
            return n;
        });
        CLOCK.advance(Duration.ofHours(1));
        assertEquals(NodeJobStatus.Busy, read("vm1").jobStatus(), "when it was drained is not known");
    }

    @Test
    void drainingANodeTheClusterDoesNotHaveSaysSo() {
        SchedulerCommandException e = assertThrows(SchedulerCommandException.class,
                () -> adapter.offline("gone", "idle"));
        assertTrue(e.getMessage().contains("no such node"), e.getMessage());
    }
}
