package io.hpcscale.scaler.match;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a pool's node is and has, as constraints see it: its properties ({@code node.vm_size}, named as CycleCloud's
 * library names them, kept here without the {@code node.} prefix) and its resources ({@code ncpus}, {@code mem},
 * and those the administrator defines). A property the pool cannot tell (a command provider's VM size not given)
 * is null, as the library's unknown values are None.
 *
 * @param pool the pool's name, for messages
 */
public record NodeProperties(String pool, Map<String, Object> properties, Map<String, Object> resources) {
    /** Every property a constraint may name after {@code node.}; another is refused when the constraint is read. */
    public static final List<String> NAMES = List.of("vm_size", "vm_family", "location", "spot", "vcpu_count",
            "pcpu_count", "memory", "gpu_count", "infiniband", "placement_group", "colocated", "nodearray");

    public NodeProperties {
        Objects.requireNonNull(pool, "pool");
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        resources = Collections.unmodifiableMap(new LinkedHashMap<>(resources));
    }

    /** The property's value, or null when the pool cannot tell it. */
    public Object property(String name) {
        return properties.get(name);
    }

    public boolean hasResource(String name) {
        return resources.containsKey(name);
    }

    public Object resource(String name) {
        return resources.get(name);
    }

    String describe() {
        Object size = properties.get("vm_size");
        return "pool " + pool + (size == null ? "" : " (" + size + ")");
    }
}
