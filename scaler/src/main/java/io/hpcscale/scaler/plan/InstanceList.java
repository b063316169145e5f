package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.NodeNames;
import io.hpcscale.common.secrets.Redactor;
import io.hpcscale.scaler.cloud.Instance;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pool's instances as the provider listed them this cycle, or why they are unknown. Unknown is never empty:
 * the planner does nothing to a pool whose instances it cannot see.
 */
public final class InstanceList {
    private final List<Instance> instances;
    private final String unknownBecause;
    // The planner looks instances up by node name for every node it drains or checks: a scan each time would make a
    // cycle over a pool of thousands of instances quadratic.
    private final Map<String, Instance> byNode;

    private InstanceList(List<Instance> instances, String unknownBecause) {
        this.instances = List.copyOf(instances);
        this.unknownBecause = unknownBecause;
        this.byNode = new HashMap<>(this.instances.size() * 2);
        for (Instance instance : this.instances) {
            byNode.putIfAbsent(NodeNames.key(instance.nodeName()), instance);
        }
    }

    public static InstanceList of(List<Instance> instances) {
        return new InstanceList(instances, null);
    }

    /** @param because why, which may quote a list command's output, so anything shaped like a secret goes */
    public static InstanceList unknown(String because) {
        return new InstanceList(List.of(), Redactor.text(because));
    }

    public List<Instance> instances() {
        return instances;
    }

    /** Why the instances are unknown, or null when they are known. */
    public String unknownBecause() {
        return unknownBecause;
    }

    public boolean known() {
        return unknownBecause == null;
    }

    /** The instance of a node, its name matched without case or domain ({@link NodeNames}). */
    public Optional<Instance> byNode(String node) {
        return Optional.ofNullable(byNode.get(NodeNames.key(node)));
    }
}
