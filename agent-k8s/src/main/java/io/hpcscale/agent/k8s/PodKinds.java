package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.Map;

/** What a pod is to hpcscale: work on a node, a node's own service, demand, or done. */
final class PodKinds {
    /** The annotation the kubelet puts on the API's copy of a static pod. */
    static final String MIRROR = "kubernetes.io/config.mirror";

    private PodKinds() {
    }

    /** {@code namespace/name}: what the documents call the pod. */
    static String id(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    static boolean ended(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    static String nodeName(Pod pod) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        return node == null || node.isEmpty() ? null : node;
    }

    /** A pod a node runs for itself (a DaemonSet's, or a static pod): it never makes the node busy. */
    static boolean daemonOrMirror(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        if (annotations != null && annotations.containsKey(MIRROR)) {
            return true;
        }
        return pod.getMetadata().getOwnerReferences() != null && pod.getMetadata().getOwnerReferences().stream()
                .anyMatch(owner -> "DaemonSet".equals(owner.getKind()));
    }

    /**
     * A pending pod that a new node of a pool would take: not a node's own (a DaemonSet's pod is pinned to one node,
     * a static pod is the kubelet's), and not one the scheduler has already found room for by preempting others
     * ({@code status.nominatedNodeName}).
     */
    static boolean demand(Pod pod) {
        return unschedulable(pod) && !daemonOrMirror(pod) && (pod.getStatus().getNominatedNodeName() == null
                || pod.getStatus().getNominatedNodeName().isEmpty());
    }

    /**
     * A pod the scheduler tried to place and could not, as the cluster autoscaler tells it: not bound, not being
     * deleted, and {@code PodScheduled} false for {@code Unschedulable} (a gated pod says {@code SchedulingGated}).
     */
    static boolean unschedulable(Pod pod) {
        if (nodeName(pod) != null || pod.getMetadata().getDeletionTimestamp() != null || pod.getStatus() == null
                || pod.getStatus().getConditions() == null || ended(pod)) {
            return false;
        }
        for (PodCondition condition : pod.getStatus().getConditions()) {
            if ("PodScheduled".equals(condition.getType())) {
                return "False".equals(condition.getStatus()) && "Unschedulable".equals(condition.getReason());
            }
        }
        return false;
    }
}
