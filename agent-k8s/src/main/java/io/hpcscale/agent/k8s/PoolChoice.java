package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The pools a pending pod may run in, as the pool label values its node selector names, or else the values a
 * required node affinity on the label allows ({@code In}, over all its terms, in order), or else the default pool's.
 * A pod that names none and has no default is no pool's demand.
 */
final class PoolChoice {
    private final String poolLabel;
    private final String defaultValue;

    /** @param defaultValue the default pool's label value, or null */
    PoolChoice(String poolLabel, String defaultValue) {
        this.poolLabel = poolLabel;
        this.defaultValue = defaultValue;
    }

    List<String> of(PodSpec spec) {
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
