package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The pools a pending pod may run in, as the pool label values its node selector names, or else the values a
 * required node affinity on the label allows ({@code In}, over all its terms, in order), or else the default pool's;
 * less those the affinity refuses ({@code NotIn}), and of the rest those whose nodes' taints it tolerates. A pod
 * pinned to one node by name, or that refuses every pool's nodes ({@code DoesNotExist}), is no pool's demand. Other
 * constraints on other labels are assumed met by a pool's nodes.
 */
final class PoolChoice {
    /** The label every kubelet sets to its node's name. */
    private static final String HOST_LABEL = "kubernetes.io/hostname";

    private final String poolLabel;
    private final String defaultValue;
    private final PoolTaints taints;

    /** @param defaultValue the default pool's label value, or null */
    PoolChoice(String poolLabel, String defaultValue, PoolTaints taints) {
        this.poolLabel = poolLabel;
        this.defaultValue = defaultValue;
        this.taints = taints;
    }

    List<String> of(PodSpec spec) {
        List<Toleration> tolerations = spec.getTolerations() == null ? List.of() : spec.getTolerations();
        return named(spec).stream().filter(value -> taints.allows(value, tolerations)).toList();
    }

    private List<String> named(PodSpec spec) {
        Map<String, String> selector = spec.getNodeSelector() == null ? Map.of() : spec.getNodeSelector();
        List<NodeSelectorRequirement> required = requiredExpressions(spec);
        if (selector.containsKey(HOST_LABEL) || required.stream().anyMatch(r -> HOST_LABEL.equals(r.getKey()))
                || pinnedByName(spec)) {
            // Bound to one node by name: no node started for a pool would take it.
            return List.of();
        }
        if (selector.get(poolLabel) != null) {
            return List.of(selector.get(poolLabel));
        }
        List<String> allowed = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (NodeSelectorRequirement r : required) {
            if (!poolLabel.equals(r.getKey())) {
                continue;
            }
            List<String> values = r.getValues() == null ? List.of() : r.getValues();
            switch (r.getOperator() == null ? "" : r.getOperator()) {
                case "In" -> values.stream().filter(v -> !allowed.contains(v)).forEach(allowed::add);
                case "NotIn" -> refused.addAll(values);
                case "DoesNotExist" -> {
                    return List.of();
                }
                default -> {
                }
            }
        }
        if (allowed.isEmpty() && defaultValue != null) {
            allowed.add(defaultValue);
        }
        allowed.removeAll(refused);
        return allowed;
    }

    /** The match expressions of the pod's required node affinity, over all its terms. */
    private static List<NodeSelectorRequirement> requiredExpressions(PodSpec spec) {
        NodeSelector required = required(spec);
        if (required == null || required.getNodeSelectorTerms() == null) {
            return List.of();
        }
        List<NodeSelectorRequirement> expressions = new ArrayList<>();
        for (NodeSelectorTerm term : required.getNodeSelectorTerms()) {
            if (term.getMatchExpressions() != null) {
                expressions.addAll(term.getMatchExpressions());
            }
        }
        return expressions;
    }

    private static boolean pinnedByName(PodSpec spec) {
        NodeSelector required = required(spec);
        return required != null && required.getNodeSelectorTerms() != null && required.getNodeSelectorTerms()
                .stream().anyMatch(term -> term.getMatchFields() != null && !term.getMatchFields().isEmpty());
    }

    private static NodeSelector required(PodSpec spec) {
        if (spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null) {
            return null;
        }
        return spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
    }
}
