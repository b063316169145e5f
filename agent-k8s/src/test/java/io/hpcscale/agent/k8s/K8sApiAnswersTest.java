package io.hpcscale.agent.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.hpcscale.common.agent.OfflineMark;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Answers a real API server gives and fabric8's mock does not give by itself, scripted on the mock: a PATCH refused
 * for a node changed in between (409), lists in pages with a continue token, a continue token expired (410), a
 * refusal for want of a right (403).
 */
class K8sApiAnswersTest {
    private static MockCluster cluster;
    private static K8sAdapter adapter;

    @BeforeAll
    static void start() {
        cluster = MockCluster.start(false);
        adapter = new K8sAdapter(cluster.admin, K8sTestSettings.of(Map.of("agent.k8s.pageSize", "10")),
                Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @AfterEach
    void clear() {
        cluster.clear();
    }

    @Test
    void aDrainRefusedBecauseTheNodeChangedInBetweenIsDecidedAgainOnAFreshRead() throws Exception {
        cluster.node("vm1", "cpu", 16, "64Gi");
        cluster.refusePatchOnce("/api/v1/nodes/vm1", 409, "Conflict");
        int requests = cluster.requests();
        adapter.offline("vm1", "idle");
        assertEquals(requests + 4, cluster.requests(), "read, refused, read again, patched");
        assertEquals(OfflineMark.HPCSCALE, read("vm1").offline(), "drained on the second try");
    }

    @Test
    void aNodeThatKeepsChangingFailsTheDrainSayingSo() {
        cluster.node("vm1", "cpu", 16, "64Gi");
        for (int i = 0; i < 3; i++) {
            cluster.refusePatchOnce("/api/v1/nodes/vm1", 409, "Conflict");
        }
        SchedulerCommandException e = assertThrows(SchedulerCommandException.class,
                () -> adapter.offline("vm1", "idle"));
        assertTrue(e.getMessage().contains("kept changing"), e.getMessage());
    }

    @Test
    void aListInPagesIsReadToItsLastPage() throws Exception {
        Node vm1 = cluster.node("vm1", "cpu", 16, "64Gi");
        Node onPageTwo = new NodeBuilder(vm1).editMetadata().withName("vm9").endMetadata().build();
        cluster.answerOnce("/api/v1/nodes?limit=10", new NodeListBuilder().withNewMetadata().withContinue("page2")
                .withResourceVersion("7").endMetadata().withItems(vm1).build());
        cluster.answerOnce("/api/v1/nodes?continue=page2&limit=10", new NodeListBuilder().withNewMetadata()
                .withResourceVersion("7").endMetadata().withItems(onPageTwo).build());
        assertEquals(List.of("vm1", "vm9"), adapter.read().nodes().stream().map(SchedulerNode::name).toList(),
                "vm9 is only on the second page");
    }

    @Test
    void aContinueTokenThatExpiredStartsTheListAgainOnce() throws Exception {
        cluster.node("vm1", "cpu", 16, "64Gi");
        cluster.node("vm2", "cpu", 16, "64Gi");
        cluster.answerOnce("/api/v1/nodes?limit=10", new NodeListBuilder().withNewMetadata().withContinue("old")
                .withResourceVersion("7").endMetadata().withItems(cluster.admin.nodes().withName("vm1").get())
                .build());
        cluster.refuseGetOnce("/api/v1/nodes?continue=old&limit=10", 410, "Expired");
        assertEquals(List.of("vm1", "vm2"), adapter.read().nodes().stream().map(SchedulerNode::name).sorted()
                .toList(), "listed again from the start, whole");
    }

    @Test
    void aListTheAgentMayNotMakeFailsTheReadNamingTheRightsToGrant() {
        cluster.refuseGetOnce("/api/v1/nodes?limit=10", 403, "Forbidden");
        SchedulerReadException e = assertThrows(SchedulerReadException.class, adapter::read);
        assertTrue(e.getMessage().contains("cannot list nodes") && e.getMessage().contains("docs/k8s-rbac.yaml"),
                e.getMessage());
    }

    private static SchedulerNode read(String node) throws Exception {
        return adapter.read().nodes().stream().filter(n -> n.name().equals(node)).findFirst().orElseThrow();
    }
}
