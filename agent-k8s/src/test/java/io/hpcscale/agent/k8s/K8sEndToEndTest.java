package io.hpcscale.agent.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The agent and the scaler together on the mock API server and the simulated cloud, as issue 23 asks. */
class K8sEndToEndTest {
    private static MockCluster cluster;

    @BeforeAll
    static void start() {
        cluster = MockCluster.start(true);
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
    void tenPendingPodsOfFourCpusStartThreeSixteenCpuNodes() throws Exception {
        K8sServices services = new K8sServices(cluster, Map.of("cpu", 10), Map.of());
        for (int i = 0; i < 10; i++) {
            cluster.unschedulable(cluster.pod("batch", "task-" + i, "4", "1Gi").editSpec()
                    .withNodeSelector(Map.of(MockCluster.POOL_LABEL, "cpu")).endSpec());
        }
        services.cycle();
        assertEquals(3, services.active("cpu"));
        services.cycles(3);
        assertEquals(3, services.active("cpu"), "nothing more while they boot");
    }

    @Test
    void aVolcanoGangOfEightStartsEightNodesOrNone() throws Exception {
        Map<String, Object> gang = MockCluster.map("minMember", 8, "queue", "mpi", "minResources",
                MockCluster.map("cpu", "96", "memory", "64Gi"));
        cluster.create(ClusterRead.POD_GROUPS, "hpc", "solver", gang, MockCluster.map("phase", "Pending"));
        K8sServices enough = new K8sServices(cluster, Map.of("cpu", 8), Map.of("pool.cpu.volcanoQueues", "mpi"));
        enough.cycle();
        assertEquals(8, enough.active("cpu"), "8 pods of 12 CPUs: one 16-CPU node each");

        K8sServices tooFew = new K8sServices(cluster, Map.of("cpu", 7), Map.of("pool.cpu.volcanoQueues", "mpi"));
        tooFew.cycles(2);
        assertEquals(0, tooFew.active("cpu"), "7 nodes would run 7 of the 8: none is started");
    }

    @Test
    void aKueueWorkloadOverItsQuotaStartsNothingAndIsWrittenAsWaiting() throws Exception {
        cluster.create(MockCluster.LOCAL_QUEUES, "team", "q", MockCluster.map("clusterQueue", "team-cq"), null);
        cluster.create(MockCluster.WORKLOADS, "team", "train", MockCluster.map("queueName", "q", "podSets",
                List.of(MockCluster.map("name", "main", "count", 2, "template", MockCluster.map("spec",
                        MockCluster.map("containers", List.of(MockCluster.map("name", "c", "image", "x",
                                "resources", MockCluster.map("requests", MockCluster.map("cpu", "8"))))))))),
                MockCluster.map("conditions", List.of(MockCluster.map("type", "QuotaReserved", "status", "False",
                        "reason", "Pending", "message", "couldn't assign flavors to pod set main: insufficient "
                                + "unused quota for cpu in flavor default, 16 more needed"))));
        K8sServices services = new K8sServices(cluster, Map.of("cpu", 4), Map.of("pool.cpu.clusterQueues",
                "team-cq"));
        services.cycles(2);
        assertEquals(0, services.active("cpu"));
        JobDocument job = services.jobs("cpu").get(0);
        assertEquals(JobState.Waiting, job.status(), "in the store for status to show: " + job);
        String status = services.status(services.pools());
        assertTrue(status.contains("waiting    1 waiting for something other than nodes, which more nodes would not "
                + "start: workload:team/train: Kueue has not reserved quota for it in ClusterQueue team-cq: "
                + "couldn't assign flavors to pod set main: insufficient unused quota for cpu"), status);
    }

    @Test
    void aNodeRunningAPodIsNeverStoppedAndOneAnAdministratorCordonedIsNeverTouched() throws Exception {
        K8sServices services = new K8sServices(cluster, Map.of("cpu", 3), Map.of());
        for (int i = 0; i < 3; i++) {
            cluster.unschedulable(cluster.pod("batch", "big-" + i, "16", "1Gi").editSpec()
                    .withNodeSelector(Map.of(MockCluster.POOL_LABEL, "cpu")).endSpec());
        }
        services.cycles(4);
        List<String> nodes = cluster.admin.nodes().list().getItems().stream().map(n -> n.getMetadata().getName())
                .sorted().toList();
        assertEquals(3, nodes.size(), "the three booted and registered: " + nodes);
        cluster.admin.pods().inAnyNamespace().delete();
        cluster.running(cluster.pod("batch", "long-job", "8", "1Gi"), nodes.get(0));
        cluster.admin.nodes().withName(nodes.get(1)).edit(n -> {
            n.getSpec().setUnschedulable(true);
            return n;
        });

        services.cycles(30);

        List<Instance> instances = services.cloud.instances("cpu");
        assertEquals(PowerState.RUNNING, state(instances, nodes.get(0)), "its pod runs: never stopped");
        assertEquals(PowerState.RUNNING, state(instances, nodes.get(1)), "the administrator's: left alone");
        assertEquals(PowerState.STOPPED, state(instances, nodes.get(2)), "idle past idleTimeout: drained, stopped");
        Node cordoned = cluster.admin.nodes().withName(nodes.get(1)).get();
        assertTrue(cordoned.getSpec().getUnschedulable(), "still cordoned");
        assertTrue(cordoned.getSpec().getTaints().isEmpty(), "no taint of ours on it: " + cordoned.getSpec());
        assertFalse(cluster.admin.nodes().withName(nodes.get(0)).get().getSpec().getTaints().stream()
                .anyMatch(t -> t.getKey().equals("hpcscale.io/drain")), "the busy node was never drained");
    }

    private static PowerState state(List<Instance> instances, String node) {
        return instances.stream().filter(i -> i.nodeName().equals(node)).findFirst().orElseThrow().state();
    }
}
