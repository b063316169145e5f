package io.hpcscale.scaler.pool;

import io.hpcscale.scaler.match.NodeProperties;
import io.hpcscale.scaler.match.Quantity;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Builds what a pool's node is for constraints, from three sources in rising precedence: what one instance offers
 * (the shape), what the cloud says of the pool's instances (VM size, family, region, Spot, InfiniBand, placement
 * group), and what the administrator sets ({@code pool.<name>.node.<property>}, {@code pool.<name>.resource.<r>}).
 * The system resources follow the properties unless the administrator sets them: {@code ncpus} the vCPUs,
 * {@code pcpus} the physical cores, {@code ngpus} the GPUs, {@code mem} the memory jobs may use.
 */
public final class PoolNode {
    private PoolNode() {
    }

    public static NodeProperties of(String pool, VmShape shape, Map<String, Object> fromCloud,
            Map<String, Object> properties, Map<String, Object> resources) {
        Map<String, Object> node = new LinkedHashMap<>();
        NodeProperties.NAMES.forEach(name -> node.put(name, null));
        node.put("nodearray", pool);
        node.put("spot", false);
        node.put("infiniband", false);
        if (shape != null) {
            node.put("vcpu_count", (long) shape.cpus());
            node.put("pcpu_count", (long) shape.cpus());
            node.put("memory", Quantity.ofMib(shape.memoryMb()));
            node.put("gpu_count", (long) shape.gpus());
        }
        node.putAll(fromCloud);
        node.putAll(properties);
        node.put("colocated", node.get("placement_group") != null);
        Map<String, Object> offered = new LinkedHashMap<>();
        putIfKnown(offered, "ncpus", node.get("vcpu_count"));
        putIfKnown(offered, "pcpus", node.get("pcpu_count"));
        putIfKnown(offered, "ngpus", node.get("gpu_count"));
        putIfKnown(offered, "mem", node.get("memory"));
        offered.putAll(resources);
        return new NodeProperties(pool, node, offered);
    }

    /**
     * A value as the administrator writes it in the properties file: {@code true}/{@code false}, a whole or decimal
     * number, a {@code memory::}/{@code size::} quantity, or text.
     */
    public static Object settingValue(String text) {
        String value = text.strip();
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.equals("true") || lower.equals("false")) {
            return Boolean.valueOf(lower);
        }
        if (value.matches("-?[0-9]+")) {
            return Long.valueOf(value);
        }
        if (value.matches("-?[0-9]+\\.[0-9]+")) {
            return Double.valueOf(value);
        }
        if (Quantity.isQuantity(value)) {
            return Quantity.parse(value);
        }
        return value;
    }

    private static void putIfKnown(Map<String, Object> map, String name, Object value) {
        if (value != null) {
            map.put(name, value);
        }
    }
}
