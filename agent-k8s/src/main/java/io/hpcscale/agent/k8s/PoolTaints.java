package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The taints a pool's nodes carry ({@code pool.<name>.taints}, as {@code kubectl taint} writes them:
 * {@code key[=value]:Effect}), so that a pending pod that does not tolerate them is not that pool's demand: a node
 * started for it would not take it. Known from the configuration rather than from the nodes, as a pool scaled to
 * zero has none to read them from.
 */
final class PoolTaints {
    private static final Pattern TAINT = Pattern.compile("([^=:\\s]+)(?:=([^:\\s]*))?:(NoSchedule|NoExecute|"
            + "PreferNoSchedule)");
    /** What keeps a pod off a node; a preference does not. */
    private static final Set<String> BINDING = Set.of("NoSchedule", "NoExecute");

    private final Map<String, List<Taint>> byPoolValue;

    /** @param byPoolValue the taints of each pool, by its pool label value */
    PoolTaints(Map<String, List<Taint>> byPoolValue) {
        this.byPoolValue = Map.copyOf(byPoolValue);
    }

    /** @throws IllegalArgumentException a taint not written as {@code key[=value]:Effect} */
    static List<Taint> parse(String text) {
        List<Taint> taints = new ArrayList<>();
        for (String part : text.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            Matcher m = TAINT.matcher(part.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + part.strip() + "' is not a taint: write key[=value]:Effect, "
                        + "with Effect NoSchedule, NoExecute or PreferNoSchedule");
            }
            taints.add(new TaintBuilder().withKey(m.group(1)).withValue(m.group(2)).withEffect(m.group(3)).build());
        }
        return taints;
    }

    /** Whether a pod with these tolerations may run on the nodes of the pool with this label value. */
    boolean allows(String poolValue, List<Toleration> tolerations) {
        for (Taint taint : byPoolValue.getOrDefault(poolValue, List.of())) {
            if (BINDING.contains(taint.getEffect()) && tolerations.stream().noneMatch(t -> tolerates(t, taint))) {
                return false;
            }
        }
        return true;
    }

    /** As the kube-scheduler matches them (Toleration.ToleratesTaint in k8s.io/api/core/v1). */
    static boolean tolerates(Toleration toleration, Taint taint) {
        if (toleration.getEffect() != null && !toleration.getEffect().isEmpty()
                && !toleration.getEffect().equals(taint.getEffect())) {
            return false;
        }
        String key = toleration.getKey() == null ? "" : toleration.getKey();
        boolean exists = "Exists".equals(toleration.getOperator());
        if (key.isEmpty()) {
            return exists;
        }
        if (!key.equals(taint.getKey())) {
            return false;
        }
        if (exists) {
            return true;
        }
        String value = toleration.getValue() == null ? "" : toleration.getValue();
        return value.equals(taint.getValue() == null ? "" : taint.getValue());
    }
}
