package io.hpcscale.scaler.pool;

import io.hpcscale.scaler.match.Constraint;
import io.hpcscale.scaler.match.JobMatching;
import io.hpcscale.scaler.match.NodeProperties;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What decides which of a queue's jobs a pool takes, as configured: its price, what the administrator says of its
 * nodes, and the constraint every job of its queue carries.
 *
 * @param pricePerHour    one instance's price per hour ({@code pricePerHour}), or null: a group of pools whose every
 *                        member has a price is tried cheapest first
 * @param vmSize          the pool's VM size as its settings name it ({@code vmSize}), for where the cloud says none
 * @param properties      node properties set by the administrator ({@code node.<property>}), over the cloud's
 * @param resources       resources the administrator defines ({@code resource.<r>})
 * @param queueConstraint the constraint every job of the pool's queue must meet ({@code constraint}); on the group's
 *                        first pool, whose queue the agent maps
 */
public record PoolMatching(Double pricePerHour, String vmSize, Map<String, Object> properties,
        Map<String, Object> resources, Constraint queueConstraint) {

    public PoolMatching {
        Objects.requireNonNull(queueConstraint, "queueConstraint");
        properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        resources = Collections.unmodifiableMap(new LinkedHashMap<>(resources));
    }

    /** Each job's constraints: its own and its queue's, as these pools' settings give them. */
    public static JobMatching forPools(Collection<PoolConfig> pools) {
        Map<String, Constraint> byPool = new LinkedHashMap<>();
        pools.forEach(pool -> byPool.put(pool.name(), pool.matching().queueConstraint()));
        return new JobMatching(byPool);
    }

    /** The pool's node as constraints see it, with what the cloud says of its instances. */
    public NodeProperties node(String pool, VmShape shape, Map<String, Object> fromCloud) {
        Map<String, Object> cloud = new HashMap<>();
        if (vmSize != null) {
            cloud.put("vm_size", vmSize);
        }
        cloud.putAll(fromCloud);
        return PoolNode.of(pool, shape, cloud, properties, resources);
    }
}
