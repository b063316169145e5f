package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.hpcscale.common.agent.OfflineMark;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.model.NodeJobStatus;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One Kubernetes node as hpcscale sees a scheduler's node: its pool from the pool label, what it offers from its
 * allocatable, what its pods request, busy while any pod runs on it that is neither a DaemonSet's nor a static
 * (mirror) pod, down unless Ready, and whose mark holds it out of service ({@link DrainMarks}).
 */
final class NodeReading {
    private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024);

    private final K8sSettings settings;
    private final DrainMarks marks;

    NodeReading(K8sSettings settings, DrainMarks marks) {
        this.settings = settings;
        this.marks = marks;
    }

    /**
     * @param pods the pods bound to this node that have not ended
     * @throws IllegalArgumentException a quantity in the node or its pods that is not one
     */
    SchedulerNode read(Node node, List<Pod> pods, Instant now) {
        String name = node.getMetadata().getName();
        String value = node.getMetadata().getLabels() == null ? null
                : node.getMetadata().getLabels().get(settings.poolLabel());
        PodRequests offered = node.getStatus() == null ? PodRequests.NONE
                : PodRequests.ofQuantities(node.getStatus().getAllocatable(), settings.gpuResources());
        PodRequests used = PodRequests.NONE;
        List<String> busyWith = new ArrayList<>();
        for (Pod pod : pods) {
            used = used.plus(PodRequests.of(pod.getSpec(), settings.gpuResources()));
            if (!PodKinds.daemonOrMirror(pod)) {
                busyWith.add(PodKinds.id(pod));
            }
        }
        boolean settling = marks.settling(node, now, settings.drainSettle());
        OfflineMark mark = marks.mark(node);
        boolean down = !ready(node);
        return new SchedulerNode(name, value == null ? List.of() : List.of(value),
                busyWith.isEmpty() && !settling ? NodeJobStatus.Free : NodeJobStatus.Busy,
                state(down, mark, settling), mark, down, false,
                whole(offered.cpus(), RoundingMode.FLOOR), whole(used.cpus(), RoundingMode.CEILING),
                offered.memoryBytes().divide(MIB, 0, RoundingMode.FLOOR).longValueExact(),
                used.memoryBytes().divide(MIB, 0, RoundingMode.CEILING).longValueExact(),
                Math.toIntExact(offered.gpus()), Math.toIntExact(used.gpus()), busyWith, null);
    }

    private static boolean ready(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return false;
        }
        for (NodeCondition condition : node.getStatus().getConditions()) {
            if ("Ready".equals(condition.getType())) {
                return "True".equals(condition.getStatus());
            }
        }
        return false;
    }

    /** As {@code kubectl get nodes} shows it, with our drain and its settling time. */
    private static String state(boolean down, OfflineMark mark, boolean settling) {
        StringBuilder state = new StringBuilder(down ? "NotReady" : "Ready");
        if (mark != OfflineMark.NONE) {
            state.append(",SchedulingDisabled");
        }
        if (mark == OfflineMark.HPCSCALE) {
            state.append(",hpcscale-drain");
        }
        if (settling) {
            state.append(",settling");
        }
        return state.toString();
    }

    private static int whole(BigDecimal cores, RoundingMode rounding) {
        return cores.setScale(0, rounding).intValueExact();
    }
}
