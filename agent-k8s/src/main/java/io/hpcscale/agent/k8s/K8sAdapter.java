package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hpcscale.common.agent.DrainRight;
import io.hpcscale.common.agent.SchedulerAdapter;
import io.hpcscale.common.agent.SchedulerCommandException;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import io.hpcscale.common.agent.UnreadableEntryLog;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kubernetes as hpcscale's scheduler: nodes labelled with a pool are its nodes, and the work that waits for room
 * is its jobs: pods the scheduler could not place, Volcano gangs, Kueue workloads not yet admitted. Draining a node
 * is a cordon and our taint ({@link NodeDrains}); bringing it back lifts only our marks.
 */
final class K8sAdapter implements SchedulerAdapter {
    private final KubernetesClient client;
    private final ClusterRead cluster;
    private final NodeReading nodes;
    private final PendingPods pendingPods;
    private final VolcanoGangs gangs;
    private final KueueWorkloads workloads;
    private final NodeDrains drains;
    private final Clock clock;
    private final UnreadableEntryLog unreadable = new UnreadableEntryLog();
    private final UnboundPodsWatch unbound;
    private final WaitEvents waitEvents;

    K8sAdapter(KubernetesClient client, K8sSettings settings, Clock clock) {
        this.client = client;
        this.clock = clock;
        DrainMarks marks = new DrainMarks(settings.drainTaint());
        PoolChoice pools = new PoolChoice(settings.poolLabel(), settings.defaultPoolValue(), settings.taints());
        this.cluster = new ClusterRead(client, settings);
        this.nodes = new NodeReading(settings, marks);
        this.pendingPods = new PendingPods(settings, pools);
        this.gangs = new VolcanoGangs(settings, pools);
        this.workloads = new KueueWorkloads(settings, pools, client.getKubernetesSerialization());
        this.drains = new NodeDrains(client, marks, clock);
        this.unbound = new UnboundPodsWatch(client);
        this.waitEvents = new WaitEvents(client, clock);
    }

    @Override
    public String scheduler() {
        return "k8s";
    }

    @Override
    public SchedulerSnapshot read() throws SchedulerReadException {
        ClusterRead.Found found = cluster.read();
        Instant now = clock.instant();
        Map<String, List<Pod>> podsByNode = new HashMap<>();
        Map<String, List<Pod>> podsByGang = new HashMap<>();
        for (Pod pod : found.pods()) {
            String node = PodKinds.nodeName(pod);
            if (node != null) {
                podsByNode.computeIfAbsent(node, n -> new ArrayList<>()).add(pod);
            }
            String gang = VolcanoGangs.gangOf(pod);
            if (gang != null) {
                podsByGang.computeIfAbsent(gang, g -> new ArrayList<>()).add(pod);
            }
        }
        List<SchedulerNode> read = new ArrayList<>();
        Set<String> unreadableNodes = new TreeSet<>();
        for (Node node : found.nodes()) {
            String name = node.getMetadata().getName();
            try {
                read.add(nodes.read(node, podsByNode.getOrDefault(name, List.of()), now));
            } catch (RuntimeException e) {
                unreadableNodes.add(name);
                unreadable.skipped("node", name, e);
            }
        }
        List<SchedulerJob> jobs = new ArrayList<>();
        Set<String> unreadableJobs = new TreeSet<>();
        Set<String> waitingGangs = new HashSet<>();
        Map<String, HasMetadata> objects = new HashMap<>();
        for (GenericKubernetesResource group : found.podGroups()) {
            if (!VolcanoGangs.waiting(group)) {
                continue;
            }
            String id = VolcanoGangs.id(group);
            waitingGangs.add(id);
            objects.put("podgroup:" + id, group);
            addJob(jobs, unreadableJobs, "podgroup:" + id, () -> gangs.job(group,
                    podsByGang.getOrDefault(id, List.of())));
        }
        for (Pod pod : found.pods()) {
            if (PodKinds.demand(pod) && !waitingGangs.contains(VolcanoGangs.gangOf(pod))) {
                objects.put(PodKinds.id(pod), pod);
                addJob(jobs, unreadableJobs, PodKinds.id(pod), () -> pendingPods.job(pod));
            }
        }
        Map<String, String> clusterQueueOf = clusterQueues(found.localQueues());
        for (GenericKubernetesResource workload : found.workloads()) {
            objects.put("workload:" + KueueWorkloads.id(workload), workload);
            addJob(jobs, unreadableJobs, "workload:" + KueueWorkloads.id(workload),
                    () -> workloads.job(workload, clusterQueueOf));
        }
        waitEvents.remember(objects);
        unreadable.endRead();
        unbound.follow(found.podsVersion(), found.pods());
        return new SchedulerSnapshot(jobs, read, unreadableJobs, unreadableNodes);
    }

    private interface JobReading {
        /** The job, or null when the entry is no demand. */
        SchedulerJob read();
    }

    private void addJob(List<SchedulerJob> jobs, Set<String> unreadableJobs, String id, JobReading reading) {
        try {
            SchedulerJob job = reading.read();
            if (job != null) {
                jobs.add(job);
            }
        } catch (RuntimeException e) {
            unreadableJobs.add(id);
            unreadable.skipped("job", id, e);
        }
    }

    private static Map<String, String> clusterQueues(List<GenericKubernetesResource> localQueues) {
        Map<String, String> byLocalQueue = new HashMap<>();
        for (GenericKubernetesResource queue : localQueues) {
            Object clusterQueue = queue.get("spec", "clusterQueue");
            if (clusterQueue != null) {
                byLocalQueue.put(queue.getMetadata().getNamespace() + "/" + queue.getMetadata().getName(),
                        clusterQueue.toString());
            }
        }
        return byLocalQueue;
    }

    /**
     * The pods no node holds, as the watch keeps them ({@link UnboundPodsWatch}, free while nothing happens), or
     * where it does not run as one list of them (on a busy cluster a few hundred, against tens of thousands in a full
     * read): a pod queued, placed or gone changes either. Gangs and workloads that have no pods yet wait for the
     * full read.
     */
    @Override
    public Optional<String> quickSignature() throws SchedulerReadException {
        Optional<String> watched = unbound.signature();
        if (watched.isPresent()) {
            return watched;
        }
        try {
            return Optional.of(UnboundPodsWatch.signatureOf(UnboundPodsWatch.projection(client.pods().inAnyNamespace()
                    .withField("spec.nodeName", "").list().getItems())));
        } catch (KubernetesClientException e) {
            throw ClusterRead.failure("list the pods no node holds", e);
        }
    }

    /** Whether the agent's account may patch nodes, asked of the API server without patching any. */
    @Override
    public Optional<DrainRight> probeDrainRight() {
        SelfSubjectAccessReview review = new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes()
                .withVerb("patch").withResource("nodes").endResourceAttributes().endSpec().build();
        try {
            SelfSubjectAccessReview answer = client.authorization().v1().selfSubjectAccessReview().create(review);
            Boolean allowed = answer.getStatus() == null ? null : answer.getStatus().getAllowed();
            return Optional.of(new DrainRight(allowed, Boolean.FALSE.equals(allowed)
                    ? "the agent's account may not patch nodes: grant it the rules of docs/k8s-rbac.yaml"
                    : Boolean.TRUE.equals(allowed) ? "the agent's account may patch nodes"
                    : "the API server did not say whether the agent's account may patch nodes"));
        } catch (KubernetesClientException e) {
            return Optional.of(new DrainRight(null, "cannot ask the API server whether the agent may patch nodes: "
                    + e.getMessage()));
        }
    }

    @Override
    public void offline(String node, String reason) throws SchedulerCommandException {
        drains.drain(node, reason);
    }

    @Override
    public void bringBack(String node) throws SchedulerCommandException {
        drains.bringBack(node);
    }

    /**
     * Nothing to put back: a pod on a node that goes is recreated elsewhere by its Job or other controller, and the
     * node's taint keeps new pods off it meanwhile.
     */
    @Override
    public boolean requeue(String jobId) {
        return false;
    }

    /** An Event on the pod, PodGroup or Workload ({@link WaitEvents}); nothing to take back. */
    @Override
    public void showWaitReason(String jobId, String reason) throws SchedulerCommandException {
        if (reason != null) {
            waitEvents.post(jobId, reason);
        }
    }

    /** Posted again before the API server forgets it, after an hour by default. */
    @Override
    public Duration waitReasonLasts() {
        return Duration.ofMinutes(30);
    }
}
