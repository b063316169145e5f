package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hpcscale.common.agent.OfflineMarker;
import io.hpcscale.common.agent.SchedulerCommandException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drains a node the HPC way: a cordon and our {@code NoSchedule} taint keep new pods off it, and the pods on it run
 * to their end; nothing is evicted. Each change is one JSON Patch that first replaces the node's resourceVersion
 * with the one read, so the API server refuses it (409) if anyone changed the node in between; the node is then
 * read again and the change decided again. A JSON merge patch would replace the whole list of taints, and with it
 * a taint someone else set in between.
 */
final class NodeDrains {
    /** Decided again on a node changed in between, at most this often, before the command fails. */
    private static final int ATTEMPTS = 3;
    /** Kubernetes allows 256 KiB of annotations in all; the reason is kept far below. */
    private static final int REASON_LENGTH = 1024;

    private final KubernetesClient client;
    private final DrainMarks marks;
    private final Clock clock;

    NodeDrains(KubernetesClient client, DrainMarks marks, Clock clock) {
        this.client = client;
        this.marks = marks;
        this.clock = clock;
    }

    void drain(String name, String reason) throws SchedulerCommandException {
        change(name, "drain", node -> {
            if (marks.ourTaint(node) >= 0) {
                return List.of();
            }
            if (DrainMarks.cordoned(node)) {
                // Cordoned since the read that asked for the drain, by someone else: theirs to keep, ours to leave.
                throw new SchedulerCommandException("not draining node " + name + ": it is cordoned, and not by "
                        + "hpcscale; it is left as it is", null);
            }
            List<Map<String, Object>> ops = new ArrayList<>();
            Taint ours = new TaintBuilder().withKey(marks.taintKey()).withValue("drain").withEffect("NoSchedule")
                    .build();
            // The client reads a missing list or map as an empty one, and adding into a missing one is an error:
            // an empty one is written whole (under the resourceVersion precondition, nothing is lost).
            if (node.getSpec() == null || node.getSpec().getTaints() == null || node.getSpec().getTaints().isEmpty()) {
                ops.add(op("add", "/spec/taints", List.of(ours)));
            } else {
                ops.add(op("add", "/spec/taints/-", ours));
            }
            Map<String, String> notes = new LinkedHashMap<>();
            notes.put(DrainMarks.WHY, OfflineMarker.comment(reason, REASON_LENGTH));
            notes.put(DrainMarks.AT, clock.instant().toString());
            ops.add(op("add", "/spec/unschedulable", true));
            notes.put(DrainMarks.CORDONED, "true");
            if (node.getMetadata().getAnnotations() == null || node.getMetadata().getAnnotations().isEmpty()) {
                ops.add(op("add", "/metadata/annotations", notes));
            } else {
                notes.forEach((key, value) -> ops.add(op("add", annotation(key), value)));
            }
            return ops;
        });
    }

    /** Lifts our taint and our annotations, and the cordon only if it is ours; anyone else's marks stay. */
    void bringBack(String name) throws SchedulerCommandException {
        change(name, "bring back", node -> {
            List<Map<String, Object>> ops = new ArrayList<>();
            int taint = marks.ourTaint(node);
            if (taint >= 0) {
                ops.add(op("remove", "/spec/taints/" + taint, null));
            }
            if (DrainMarks.cordonIsOurs(node) && DrainMarks.cordoned(node)) {
                ops.add(op("replace", "/spec/unschedulable", false));
            }
            for (String key : List.of(DrainMarks.WHY, DrainMarks.AT, DrainMarks.CORDONED)) {
                if (DrainMarks.annotations(node).containsKey(key)) {
                    ops.add(op("remove", annotation(key), null));
                }
            }
            return ops;
        });
    }

    private interface Change {
        /** The operations that make the change on the node as read; none when it is made already. */
        List<Map<String, Object>> on(Node node) throws SchedulerCommandException;
    }

    private void change(String name, String what, Change change) throws SchedulerCommandException {
        for (int attempt = 1; ; attempt++) {
            Node node;
            try {
                node = client.nodes().withName(name).get();
            } catch (KubernetesClientException e) {
                throw failed(what, name, e);
            }
            if (node == null) {
                throw new SchedulerCommandException("cannot " + what + " node " + name + ": the API server has no "
                        + "such node (deleted, or never registered)", null);
            }
            List<Map<String, Object>> ops = change.on(node);
            if (ops.isEmpty()) {
                return;
            }
            List<Map<String, Object>> guarded = new ArrayList<>();
            guarded.add(op("replace", "/metadata/resourceVersion", node.getMetadata().getResourceVersion()));
            guarded.addAll(ops);
            try {
                client.nodes().resource(node).patch(PatchContext.of(PatchType.JSON),
                        client.getKubernetesSerialization().asJson(guarded));
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == ATTEMPTS) {
                    throw failed(what, name, e);
                }
            }
        }
    }

    private static SchedulerCommandException failed(String what, String name, KubernetesClientException e) {
        String why = e.getCode() == 403 ? "the agent's account may not patch nodes (HTTP 403): grant it the rules of "
                + "docs/k8s-rbac.yaml" : e.getCode() == 409 ? "the node kept changing under it (HTTP 409)"
                : e.getMessage();
        return new SchedulerCommandException("cannot " + what + " node " + name + ": " + why, e);
    }

    private static Map<String, Object> op(String op, String path, Object value) {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("op", op);
        operation.put("path", path);
        if (value != null) {
            operation.put("value", value);
        }
        return operation;
    }

    /** The JSON Pointer of an annotation: {@code /} in its key is written {@code ~1}. */
    private static String annotation(String key) {
        return "/metadata/annotations/" + key.replace("~", "~0").replace("/", "~1");
    }
}
