package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Kueue's workloads that are not admitted yet. Kueue admits a workload when its ClusterQueue has quota left for
 * it, without looking at nodes; so one that waits for quota is not node demand (the virtual cluster is full: more
 * nodes would not run it), and is written as {@code Waiting}. One that holds its quota and waits for its admission
 * checks (a provisioning request asks for nodes), or that topology-aware scheduling found no room for, is demand
 * (told by the message of Kueue 0.9 to 0.14; its reason is Pending either way). A deactivated one waits too. An
 * admitted workload is no job: its pods exist, and those the scheduler cannot place are pending pods.
 */
final class KueueWorkloads {
    /** What Kueue says of a workload topology-aware scheduling cannot fit: it waits for nodes, not for quota. */
    private static final List<String> NO_ROOM_ON_NODES = List.of("doesn't allow to fit", "allows to fit only");

    private final K8sSettings settings;
    private final PoolChoice pools;
    private final KubernetesSerialization serialization;

    KueueWorkloads(K8sSettings settings, PoolChoice pools, KubernetesSerialization serialization) {
        this.settings = settings;
        this.pools = pools;
        this.serialization = serialization;
    }

    static String id(GenericKubernetesResource workload) {
        return workload.getMetadata().getNamespace() + "/" + workload.getMetadata().getName();
    }

    /**
     * The workload as a job, or null when it is admitted or finished.
     *
     * @param clusterQueueOf the ClusterQueue of each LocalQueue, by {@code namespace/name}
     * @throws IllegalArgumentException a workload whose pod sets cannot be read
     */
    SchedulerJob job(GenericKubernetesResource workload, Map<String, String> clusterQueueOf) {
        if (condition(workload, "Finished").filter("True"::equals).isPresent()
                || condition(workload, "Admitted").filter("True"::equals).isPresent()) {
            return null;
        }
        List<Chunk> chunks = new ArrayList<>();
        List<String> chosen = List.of();
        Object podSets = workload.get("spec", "podSets");
        if (!(podSets instanceof List<?> sets) || sets.isEmpty()) {
            throw new IllegalArgumentException("spec.podSets is missing or empty");
        }
        for (Object set : sets) {
            if (!(set instanceof Map<?, ?> podSet)) {
                throw new IllegalArgumentException("a pod set of spec.podSets is not an object");
            }
            Object count = podSet.get("count") == null ? 1 : podSet.get("count");
            if (!(count instanceof Number number) || number.intValue() < 1) {
                throw new IllegalArgumentException("a pod set's count is " + count + ", not at least 1");
            }
            PodTemplateSpec template = serialization.convertValue(podSet.get("template"), PodTemplateSpec.class);
            if (template == null || template.getSpec() == null) {
                throw new IllegalArgumentException("a pod set has no template");
            }
            chunks.add(PodRequests.of(template.getSpec(), settings.gpuResources()).chunk(number.intValue()));
            if (chosen.isEmpty()) {
                chosen = pools.of(template.getSpec());
            }
        }
        int pods = chunks.stream().mapToInt(Chunk::count).sum();
        String clusterQueue = clusterQueueOf(workload, clusterQueueOf);
        JobState state = state(workload);
        return new SchedulerJob("workload:" + id(workload), poolsOf(clusterQueue, chosen), state, chunks, pods,
                Placement.free, false, PendingPods.created(workload.getMetadata().getCreationTimestamp()), List.of(),
                state == JobState.Waiting ? waitingFor(workload, clusterQueue) : null);
    }

    private static JobState state(GenericKubernetesResource workload) {
        if (deactivated(workload)) {
            return JobState.Waiting;
        }
        if (condition(workload, "QuotaReserved").filter("True"::equals).isPresent()) {
            return JobState.Queued;
        }
        String message = conditionMessage(workload, "QuotaReserved");
        return NO_ROOM_ON_NODES.stream().anyMatch(message::contains) ? JobState.Queued : JobState.Waiting;
    }

    private static boolean deactivated(GenericKubernetesResource workload) {
        return Boolean.FALSE.equals(workload.get("spec", "active"));
    }

    /** What Kueue says keeps it from its quota, and in which ClusterQueue. */
    private static String waitingFor(GenericKubernetesResource workload, String clusterQueue) {
        if (deactivated(workload)) {
            return "deactivated in Kueue (spec.active = false)";
        }
        String message = conditionMessage(workload, "QuotaReserved");
        return "Kueue has not reserved quota for it" + (clusterQueue == null ? "" : " in ClusterQueue " + clusterQueue)
                + (message.isEmpty() ? "" : ": " + message);
    }

    /** Its ClusterQueue: the one it was admitted to, else its LocalQueue's, or null. */
    private static String clusterQueueOf(GenericKubernetesResource workload, Map<String, String> clusterQueueOf) {
        Object admitted = workload.get("status", "admission", "clusterQueue");
        if (admitted != null) {
            return admitted.toString();
        }
        Object localQueue = workload.get("spec", "queueName");
        return localQueue == null ? null
                : clusterQueueOf.get(workload.getMetadata().getNamespace() + "/" + localQueue);
    }

    /** The pool serving its ClusterQueue, else the pools its pods choose (or the default pool). */
    private List<String> poolsOf(String clusterQueue, List<String> chosenByPods) {
        String value = clusterQueue == null ? null : settings.valueOfClusterQueue().get(clusterQueue);
        return value != null ? List.of(value) : chosenByPods;
    }

    private static Optional<String> condition(GenericKubernetesResource workload, String type) {
        return conditionField(workload, type, "status");
    }

    private static String conditionMessage(GenericKubernetesResource workload, String type) {
        return conditionField(workload, type, "message").orElse("");
    }

    private static Optional<String> conditionField(GenericKubernetesResource workload, String type, String field) {
        Object conditions = workload.get("status", "conditions");
        if (!(conditions instanceof List<?> list)) {
            return Optional.empty();
        }
        for (Object item : list) {
            if (item instanceof Map<?, ?> condition && type.equals(condition.get("type"))) {
                Object value = condition.get(field);
                return Optional.ofNullable(value == null ? null : value.toString());
            }
        }
        return Optional.empty();
    }
}
