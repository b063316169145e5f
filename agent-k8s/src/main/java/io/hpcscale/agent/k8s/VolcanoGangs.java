package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Volcano's gangs (PodGroups) that wait for room, each one job whose pods start together or not at all: the pods
 * of it not yet placed (and those of {@code minMember} not made yet), or, for a gang whose pods are not made yet,
 * {@code minMember} pods sharing {@code minResources} (which is the whole gang's: a gang of unlike pods is seen as
 * alike ones until its pods exist). A gang's pods are then no jobs of their own. A gang whose Volcano queue has no
 * room left is counted all the same: Volcano's queue capacity is not read.
 */
final class VolcanoGangs {
    /** Where Volcano names a pod's gang, in the pod's namespace. */
    static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";
    /** The phases of a gang that is not running yet: accepted, admitted to its queue, or partly running. */
    static final Set<String> WAITING = Set.of("Pending", "Inqueue", "Unknown");

    private final K8sSettings settings;
    private final PoolChoice pools;

    VolcanoGangs(K8sSettings settings, PoolChoice pools) {
        this.settings = settings;
        this.pools = pools;
    }

    /** The gang a pod belongs to, as {@code namespace/name}, or null. */
    static String gangOf(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String group = annotations == null ? null : annotations.get(GROUP_ANNOTATION);
        return group == null ? null : pod.getMetadata().getNamespace() + "/" + group;
    }

    static String id(GenericKubernetesResource group) {
        return group.getMetadata().getNamespace() + "/" + group.getMetadata().getName();
    }

    static boolean waiting(GenericKubernetesResource group) {
        Object phase = group.get("status", "phase");
        return phase == null || WAITING.contains(phase.toString());
    }

    /**
     * The gang as a job, or null when no pod of it waits any more.
     *
     * @param members the gang's pods that have not ended
     * @throws IllegalArgumentException a gang whose size or resources cannot be read
     */
    SchedulerJob job(GenericKubernetesResource group, List<Pod> members) {
        List<Pod> unplaced = members.stream().filter(p -> PodKinds.nodeName(p) == null).toList();
        List<Chunk> chunks;
        List<String> queues;
        if (!members.isEmpty()) {
            if (unplaced.isEmpty()) {
                return null;
            }
            chunks = new ArrayList<>(chunksOf(unplaced));
            // Volcano may still be making the gang's pods: those not made yet are waited for too, shaped as the
            // first one made.
            int missing = minMemberOrNone(group) - members.size();
            if (missing > 0) {
                chunks.add(PodRequests.of(unplaced.get(0).getSpec(), settings.gpuResources()).chunk(missing));
            }
            queues = poolsOf(group, pools.of(unplaced.get(0).getSpec()));
        } else {
            int minMember = minMember(group);
            chunks = List.of(minResources(group).perMember(minMember).chunk(minMember));
            queues = poolsOf(group, List.of());
        }
        int pods = chunks.stream().mapToInt(Chunk::count).sum();
        return new SchedulerJob("podgroup:" + id(group), queues, JobState.Queued, chunks, pods, Placement.free, false,
                PendingPods.created(group.getMetadata().getCreationTimestamp()));
    }

    /** The pool its Volcano queue is mapped to, else the pools its pods choose, else the default pool. */
    private List<String> poolsOf(GenericKubernetesResource group, List<String> chosenByPods) {
        Object queue = group.get("spec", "queue");
        String value = queue == null ? null : settings.valueOfVolcanoQueue().get(queue.toString());
        if (value != null) {
            return List.of(value);
        }
        if (!chosenByPods.isEmpty()) {
            return chosenByPods;
        }
        return settings.defaultPoolValue() == null ? List.of() : List.of(settings.defaultPoolValue());
    }

    private List<Chunk> chunksOf(List<Pod> pods) {
        Map<PodRequests, Integer> byShape = new LinkedHashMap<>();
        for (Pod pod : pods) {
            byShape.merge(PodRequests.of(pod.getSpec(), settings.gpuResources()), 1, Integer::sum);
        }
        List<Chunk> chunks = new ArrayList<>();
        byShape.forEach((requests, count) -> chunks.add(requests.chunk(count)));
        return chunks;
    }

    /** {@code spec.minMember}, or 0 where it is not a count. */
    private static int minMemberOrNone(GenericKubernetesResource group) {
        return group.get("spec", "minMember") instanceof Number number ? number.intValue() : 0;
    }

    private static int minMember(GenericKubernetesResource group) {
        Object value = group.get("spec", "minMember");
        if (!(value instanceof Number number) || number.intValue() < 1) {
            throw new IllegalArgumentException("spec.minMember is " + value + ", not a count of at least 1");
        }
        return number.intValue();
    }

    private PodRequests minResources(GenericKubernetesResource group) {
        Object value = group.get("spec", "minResources");
        if (!(value instanceof Map<?, ?> resources) || resources.isEmpty()) {
            throw new IllegalArgumentException("it has no pods yet and no spec.minResources: nothing tells how "
                    + "large its nodes must be");
        }
        Map<String, Quantity> quantities = new LinkedHashMap<>();
        resources.forEach((name, amount) -> quantities.put(name.toString(), new Quantity(amount.toString())));
        return PodRequests.ofQuantities(quantities, settings.gpuResources());
    }
}
