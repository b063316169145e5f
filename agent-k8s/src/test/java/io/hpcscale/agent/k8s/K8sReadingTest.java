package io.hpcscale.agent.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerSnapshot;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What one read of a cluster becomes: nodes with their pools and work, and the work that waits for room. */
class K8sReadingTest {
    private static MockCluster cluster;
    private static K8sAdapter adapter;

    @BeforeAll
    static void start() {
        cluster = MockCluster.start(true);
        adapter = new K8sAdapter(cluster.admin, K8sTestSettings.of(Map.of("agent.k8s.defaultPool", "cpu",
                "pool.gpu.clusterQueues", "team-gpu", "pool.gpu.taints", "nvidia.com/gpu=present:NoSchedule")),
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

    private static SchedulerNode node(SchedulerSnapshot snapshot, String name) {
        return snapshot.nodes().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }

    private static SchedulerJob job(SchedulerSnapshot snapshot, String id) {
        return snapshot.jobs().stream().filter(j -> j.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError(id + " is not among " + snapshot.jobs()));
    }

    @Test
    void aNodeIsBusyWithItsBatchPodsButNotWithItsDaemonSetsAndCountsAllTheirRequests() throws Exception {
        cluster.node("vm1", "cpu", 16, "64Gi");
        cluster.node("vm2", "cpu", 16, "64Gi");
        cluster.node("stray", null, 4, "8Gi");
        cluster.running(cluster.pod("kube-system", "fluentd-vm1", "500m", "200Mi").editMetadata()
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("apps/v1").withKind("DaemonSet")
                        .withName("fluentd").withUid("u1").withController(true).build()).endMetadata(), "vm1");
        cluster.running(cluster.pod("kube-system", "static-vm1", "100m", "100Mi").editMetadata()
                .withAnnotations(Map.of(PodKinds.MIRROR, "abc")).endMetadata(), "vm1");
        cluster.running(cluster.pod("batch", "solver", "4", "8Gi"), "vm2");
        cluster.admin.resource(cluster.pod("batch", "starting", "1", "1Gi").editSpec().withNodeName("stray").endSpec()
                .withNewStatus().withPhase("Pending").endStatus().build()).create();

        SchedulerSnapshot snapshot = adapter.read();

        SchedulerNode vm1 = node(snapshot, "vm1");
        assertEquals(List.of("cpu"), vm1.queues(), "its pool label's value");
        assertEquals(NodeJobStatus.Free, vm1.jobStatus(), "a DaemonSet's and a static pod make no node busy");
        assertEquals(16, vm1.cpusTotal());
        assertEquals(1, vm1.cpusUsed(), "600m of requests, rounded up");
        assertEquals(65536, vm1.memoryMb());
        SchedulerNode vm2 = node(snapshot, "vm2");
        assertEquals(NodeJobStatus.Busy, vm2.jobStatus());
        assertEquals(List.of("batch/solver"), vm2.jobIds());
        assertEquals(List.of(), node(snapshot, "stray").queues(), "no pool label: the agent maps it to no pool");
        assertEquals(NodeJobStatus.Busy, node(snapshot, "stray").jobStatus(), "a pod bound and still starting");
    }

    @Test
    void aPodTheSchedulerCouldNotPlaceIsAJobInThePoolItChooses() throws Exception {
        cluster.unschedulable(cluster.pod("batch", "by-selector", "4", "2Gi").editSpec()
                .withNodeSelector(Map.of(MockCluster.POOL_LABEL, "gpu")).addNewToleration().withKey("nvidia.com/gpu")
                .withOperator("Exists").withEffect("NoSchedule").endToleration().endSpec());
        cluster.unschedulable(cluster.pod("batch", "by-affinity", "1500m", "1Gi").editSpec().withNewAffinity()
                .withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm()
                .addNewMatchExpression().withKey(MockCluster.POOL_LABEL).withOperator("In").withValues("gpu", "cpu")
                .endMatchExpression().endNodeSelectorTerm().endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity().endAffinity().endSpec());
        cluster.unschedulable(cluster.pod("batch", "anywhere", "1", "512Mi"));
        cluster.admin.resource(cluster.pod("batch", "not-tried-yet", "1", "1Gi").build()).create();

        SchedulerSnapshot snapshot = adapter.read();

        SchedulerJob selector = job(snapshot, "batch/by-selector");
        assertEquals(List.of("gpu"), selector.queues());
        assertEquals(JobState.Queued, selector.state());
        assertEquals(List.of(new Chunk(1, 4, 2048, 0)), selector.chunks());
        assertEquals(List.of("cpu"), job(snapshot, "batch/by-affinity").queues(), "it may go to gpu or cpu, but "
                + "tolerates not the gpu nodes' taint");
        assertEquals(2, job(snapshot, "batch/by-affinity").chunks().get(0).cpus(), "1500m rounded up");
        assertEquals(List.of("cpu"), job(snapshot, "batch/anywhere").queues(), "agent.k8s.defaultPool");
        assertEquals(3, snapshot.jobs().size(), "a pod the scheduler has not tried yet is no demand: "
                + snapshot.jobs());
    }

    @Test
    void aPendingPodNoNewNodeWouldTakeIsNoDemand() throws Exception {
        cluster.unschedulable(cluster.pod("kube-system", "agent-ds", "100m", "64Mi").editMetadata()
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("apps/v1").withKind("DaemonSet")
                        .withName("agent").withUid("u2").withController(true).build()).endMetadata());
        cluster.unschedulable(cluster.pod("batch", "on-vm7", "1", "1Gi").editSpec()
                .withNodeSelector(Map.of("kubernetes.io/hostname", "vm7")).endSpec());
        cluster.admin.resource(cluster.pod("batch", "preempting", "1", "1Gi").withNewStatus().withPhase("Pending")
                .withNominatedNodeName("vm2").addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").endCondition().endStatus().build()).create();
        cluster.unschedulable(cluster.pod("batch", "not-cpu", "1", "1Gi").editSpec().withNewAffinity()
                .withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm()
                .addNewMatchExpression().withKey(MockCluster.POOL_LABEL).withOperator("NotIn").withValues("cpu")
                .endMatchExpression().endNodeSelectorTerm().endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity().endAffinity().endSpec());

        SchedulerSnapshot snapshot = adapter.read();

        assertTrue(snapshot.jobs().stream().noneMatch(j -> j.id().equals("kube-system/agent-ds")
                || j.id().equals("batch/preempting")), "a DaemonSet's pod, a pod preemption placed: " + snapshot.jobs());
        assertEquals(List.of(), job(snapshot, "batch/on-vm7").queues(), "pinned to one node by name");
        assertEquals(List.of(), job(snapshot, "batch/not-cpu").queues(), "it refuses the default pool's nodes");
    }

    @Test
    void aPodThatDoesNotTolerateItsPoolsTaintIsNoDemandOfIt() throws Exception {
        cluster.unschedulable(cluster.pod("batch", "gpu-intolerant", "4", "2Gi").editSpec()
                .withNodeSelector(Map.of(MockCluster.POOL_LABEL, "gpu")).endSpec());
        assertEquals(List.of(), job(adapter.read(), "batch/gpu-intolerant").queues(),
                "a gpu node started for it would not take it");
    }

    @Test
    void aVolcanoGangIsOneJobOfAllItsPodsAndItsPodsAreNoJobsOfTheirOwn() throws Exception {
        cluster.create(ClusterRead.POD_GROUPS, "hpc", "mpi", MockCluster.map("minMember", 8, "queue", "default",
                "minResources", MockCluster.map("cpu", "96", "memory", "256Gi")), MockCluster.map("phase", "Pending"));
        cluster.create(ClusterRead.POD_GROUPS, "hpc", "started", MockCluster.map("minMember", 3, "queue", "default"),
                MockCluster.map("phase", "Inqueue"));
        for (int i = 0; i < 2; i++) {
            cluster.unschedulable(cluster.pod("hpc", "started-" + i, "12", "32Gi").editMetadata()
                    .withAnnotations(Map.of(VolcanoGangs.GROUP_ANNOTATION, "started")).endMetadata());
        }

        SchedulerSnapshot snapshot = adapter.read();

        SchedulerJob mpi = job(snapshot, "podgroup:hpc/mpi");
        assertEquals(List.of(new Chunk(8, 12, 32768, 0)), mpi.chunks(), "minResources shared by minMember pods");
        assertEquals(List.of("cpu"), mpi.queues(), "no pods yet to choose a pool: the default pool");
        assertEquals(List.of(new Chunk(2, 12, 32768, 0), new Chunk(1, 12, 32768, 0)),
                job(snapshot, "podgroup:hpc/started").chunks(), "two pods made, a third still to come");
        assertEquals(2, snapshot.jobs().size(), "the gang's pods are not counted again: " + snapshot.jobs());
    }

    @Test
    void aKueueWorkloadWaitingForQuotaIsWaitingAndOneWaitingForNodesIsQueued() throws Exception {
        cluster.create(MockCluster.LOCAL_QUEUES, "team", "gpu-queue", MockCluster.map("clusterQueue", "team-gpu"),
                null);
        Map<String, Object> podSet = MockCluster.map("name", "main", "count", 4, "template", MockCluster.map(
                "spec", MockCluster.map("containers", List.of(MockCluster.map("name", "train", "image", "x",
                        "resources", MockCluster.map("requests", MockCluster.map("cpu", "8", "memory", "16Gi",
                                "nvidia.com/gpu", "1")))))));
        cluster.create(MockCluster.WORKLOADS, "team", "over-quota", MockCluster.map("queueName", "gpu-queue",
                "podSets", List.of(podSet)), MockCluster.map("conditions", List.of(MockCluster.map("type",
                        "QuotaReserved", "status", "False", "reason", "Pending", "message", "couldn't assign flavors "
                        + "to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100, 4 more "
                        + "needed"))));
        cluster.create(MockCluster.WORKLOADS, "team", "provisioning", MockCluster.map("queueName", "gpu-queue",
                "podSets", List.of(podSet)), MockCluster.map("conditions", List.of(MockCluster.map("type",
                        "QuotaReserved", "status", "True", "reason", "QuotaReserved"))));
        cluster.create(MockCluster.WORKLOADS, "team", "admitted", MockCluster.map("queueName", "gpu-queue",
                "podSets", List.of(podSet)), MockCluster.map("conditions", List.of(MockCluster.map("type",
                        "Admitted", "status", "True"))));

        SchedulerSnapshot snapshot = adapter.read();

        SchedulerJob overQuota = job(snapshot, "workload:team/over-quota");
        assertEquals(JobState.Waiting, overQuota.state(), "the virtual cluster is full: more nodes would not run it");
        assertEquals(List.of("gpu"), overQuota.queues(), "its LocalQueue's ClusterQueue is pool gpu's");
        SchedulerJob provisioning = job(snapshot, "workload:team/provisioning");
        assertEquals(JobState.Queued, provisioning.state());
        assertEquals(List.of(new Chunk(4, 8, 16384, 1)), provisioning.chunks());
        assertTrue(snapshot.jobs().stream().noneMatch(j -> j.id().equals("workload:team/admitted")),
                "an admitted workload's pods are the demand, if they cannot be placed");
    }
}
