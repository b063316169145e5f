package io.hpcscale.agent.k8s;

import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerAdapterContract;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/**
 * The adapter contract against the mock API server: the agent's drain is our taint and cordon, an administrator's
 * is {@code kubectl cordon} with a note of why, and the entry the adapter cannot read is a Volcano gang whose
 * resources are not quantities (the mock, like an API server without the CRD's schema, stores it).
 */
class K8sAdapterContractTest extends SchedulerAdapterContract {
    private static MockCluster cluster;
    private static K8sAdapter adapter;

    @BeforeAll
    static void start() throws Exception {
        cluster = MockCluster.start(true);
        adapter = new K8sAdapter(cluster.admin, K8sTestSettings.of(Map.of()), Clock.systemUTC());
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @AfterEach
    void clear() {
        cluster.clear();
    }

    @Override
    protected SchedulerAdapter adapter() {
        return adapter;
    }

    @Override
    protected String idleNode() {
        return cluster.node("node1", "cpu", 16, "64Gi").getMetadata().getName();
    }

    @Override
    protected void offlineByAdministrator(String node, String comment) {
        cluster.admin.nodes().withName(node).edit(n -> {
            n.getSpec().setUnschedulable(true);
            n.getMetadata().setAnnotations(Map.of("admin/why", comment));
            return n;
        });
    }

    @Override
    protected String listAnUnreadableJob() {
        cluster.unschedulable(cluster.pod("default", "ok", "4", "1Gi"));
        cluster.create(ClusterRead.POD_GROUPS, "default", "broken", MockCluster.map("minMember", 2,
                "minResources", MockCluster.map("cpu", "lots")), MockCluster.map("phase", "Pending"));
        return "podgroup:default/broken";
    }
}
