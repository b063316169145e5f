package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.List;

/**
 * The pools a pending pod may run in, as the pool label values its node selector names, or else the values a
 * required node affinity on the label allows ({@code In}, over all its terms, in order), or else the default pool's;
 * of those, the pools whose nodes' taints it tolerates. A pod left with none is no pool's demand.
 */
final class PoolChoice {
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
        if (spec.getNodeSelector() != null && spec.getNodeSelector().get(poolLabel) != null) {
            return List.of(spec.getNodeSelector().get(poolLabel));
        }
        List<String> allowed = byAffinity(spec);
        if (!allowed.isEmpty()) {
            return allowed;
        }
        return defaultValue == null ? List.of() : List.of(defaultValue);
    }

    private List<String> byAffinity(PodSpec spec) {
        if (spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null) {
            return List.of();
        }
        NodeSelector required = spec.getAffinity().getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution();
        if (required == null || required.getNodeSelectorTerms() == null) {
            return List.of();
        }
        List<String> values = new ArrayList<>();
        for (NodeSelectorTerm term : required.getNodeSelectorTerms()) {
            if (term.getMatchExpressions() == null) {
                continue;
            }
            for (NodeSelectorRequirement requirement : term.getMatchExpressions()) {
                if (poolLabel.equals(requirement.getKey()) && "In".equals(requirement.getOperator())
                        && requirement.getValues() != null) {
                    requirement.getValues().stream().filter(v -> !values.contains(v)).forEach(values::add);
                }
            }
        }
        return values;
    }
}
