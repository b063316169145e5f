package io.hpcscale.scaler.plan;

import io.hpcscale.scaler.cloud.Instance;
import java.util.List;
import java.util.Optional;

/**
 * A pool's instances as the provider listed them this cycle, or why they are unknown. Unknown is never empty:
 * the planner does nothing to a pool whose instances it cannot see.
 */
public record InstanceList(List<Instance> instances, String unknownBecause) {
    public InstanceList {
        instances = List.copyOf(instances);
    }

    public static InstanceList of(List<Instance> instances) {
        return new InstanceList(instances, null);
    }

    public static InstanceList unknown(String because) {
        return new InstanceList(List.of(), because);
    }

    public boolean known() {
        return unknownBecause == null;
    }

    public Optional<Instance> byNode(String node) {
        return instances.stream().filter(i -> i.nodeName().equals(node)).findFirst();
    }
}
