package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.hpcscale.common.agent.OfflineMark;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * How a node drained by hpcscale looks, and how it is told from one someone else took out of service: our
 * {@code NoSchedule} taint, annotations saying why and when, and a cordon that is ours only when our annotation
 * says we set it. An administrator's cordon ({@code kubectl cordon}) carries none of them, and outlasts ours.
 */
final class DrainMarks {
    /** Why: hpcscale's offline comment, as the other schedulers carry it. */
    static final String WHY = "hpcscale.io/drain";
    static final String AT = "hpcscale.io/drained-at";
    /** Present when the cordon was set by hpcscale, which may then lift it; absent when it was there before. */
    static final String CORDONED = "hpcscale.io/cordoned";

    private final String taintKey;

    DrainMarks(String taintKey) {
        this.taintKey = taintKey;
    }

    String taintKey() {
        return taintKey;
    }

    /** The index of our taint in the node's taints, or -1. */
    int ourTaint(Node node) {
        List<Taint> taints = node.getSpec() == null ? null : node.getSpec().getTaints();
        if (taints == null) {
            return -1;
        }
        for (int i = 0; i < taints.size(); i++) {
            if (taintKey.equals(taints.get(i).getKey())) {
                return i;
            }
        }
        return -1;
    }

    static boolean cordoned(Node node) {
        return node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    }

    static boolean cordonIsOurs(Node node) {
        return "true".equals(annotations(node).get(CORDONED));
    }

    /**
     * Out of service by our taint (and a cordon that is ours, or none), by someone else's cordon, or not at all.
     * A cordon someone set after our taint is theirs: it holds the node when our drain is withdrawn.
     */
    OfflineMark mark(Node node) {
        boolean tainted = ourTaint(node) >= 0;
        if (!tainted) {
            return cordoned(node) ? OfflineMark.OTHER : OfflineMark.NONE;
        }
        return cordoned(node) && !cordonIsOurs(node) ? OfflineMark.OTHER : OfflineMark.HPCSCALE;
    }

    /**
     * Whether we drained the node less than {@code settle} ago, or cannot tell when: a pod bound just before the
     * drain may not show yet.
     */
    boolean settling(Node node, Instant now, Duration settle) {
        if (ourTaint(node) < 0) {
            return false;
        }
        String at = annotations(node).get(AT);
        try {
            return at == null || Instant.parse(at).plus(settle).isAfter(now);
        } catch (DateTimeParseException e) {
            // When we drained it is not known: it may be now.
            return true;
        }
    }

    static Map<String, String> annotations(Node node) {
        Map<String, String> annotations = node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }
}
