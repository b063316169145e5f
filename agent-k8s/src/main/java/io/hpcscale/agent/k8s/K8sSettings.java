package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.Taint;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.common.config.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The Kubernetes agent's settings ({@code agent.k8s.*}, and the pools' {@code poolLabelValue}, {@code clusterQueues}
 * and {@code volcanoQueues}).
 *
 * @param defaultPoolValue   the pool label value of a pending pod that chooses no pool, or null
 * @param valueOfClusterQueue Kueue ClusterQueue → the pool label value of the pool that serves it
 * @param valueOfVolcanoQueue Volcano queue → the pool label value of the pool that serves it
 * @param taints             the taints of each pool's nodes ({@code pool.<name>.taints})
 */
record K8sSettings(
        Optional<Path> kubeconfig,
        Optional<String> context,
        Duration requestTimeout,
        int pageSize,
        String poolLabel,
        String defaultPoolValue,
        List<String> gpuResources,
        String drainTaint,
        Duration drainSettle,
        Source volcano,
        Source kueue,
        Map<String, String> valueOfClusterQueue,
        Map<String, String> valueOfVolcanoQueue,
        PoolTaints taints) {

    static final String QUEUE_PROPERTY = "poolLabelValue";

    /** Whether an optional source of demand (Volcano, Kueue) is read. */
    enum Source {
        /** Where the API server serves it. */
        AUTO,
        /** Always: the read fails where it is not served. */
        ON,
        OFF
    }

    K8sSettings {
        gpuResources = List.copyOf(gpuResources);
        valueOfClusterQueue = Map.copyOf(valueOfClusterQueue);
        valueOfVolcanoQueue = Map.copyOf(valueOfVolcanoQueue);
    }

    static K8sSettings from(Settings settings) {
        String defaultPool = settings.optionalString("agent.k8s.defaultPool").orElse(null);
        if (defaultPool != null && !settings.poolNames().contains(defaultPool)) {
            throw new ConfigException("agent.k8s.defaultPool names pool '" + defaultPool + "', which is not "
                    + "configured: name one of " + settings.poolNames() + " or leave it out");
        }
        Map<String, String> byClusterQueue = new LinkedHashMap<>();
        Map<String, String> byVolcanoQueue = new LinkedHashMap<>();
        Map<String, List<Taint>> taints = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (String name : settings.poolNames()) {
            PoolSettings pool = settings.pool(name);
            String value = pool.string(QUEUE_PROPERTY);
            claim(pool, "clusterQueues", value, byClusterQueue, problems);
            claim(pool, "volcanoQueues", value, byVolcanoQueue, problems);
            try {
                taints.put(value, pool.optionalString("taints").map(PoolTaints::parse).orElse(List.of()));
            } catch (IllegalArgumentException e) {
                problems.add(pool.key("taints") + ": " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new K8sSettings(
                settings.optionalString("agent.k8s.kubeconfig").map(Path::of),
                settings.optionalString("agent.k8s.context"),
                settings.duration("agent.k8s.requestTimeout"),
                settings.intValue("agent.k8s.pageSize"),
                settings.string("agent.k8s.poolLabel"),
                defaultPool == null ? null : settings.pool(defaultPool).string(QUEUE_PROPERTY),
                list(settings.string("agent.k8s.gpuResources")),
                settings.string("agent.k8s.drainTaint"),
                settings.duration("agent.k8s.drainSettle"),
                Source.valueOf(settings.string("agent.k8s.volcano").toUpperCase(Locale.ROOT)),
                Source.valueOf(settings.string("agent.k8s.kueue").toUpperCase(Locale.ROOT)),
                byClusterQueue, byVolcanoQueue, new PoolTaints(taints));
    }

    private static void claim(PoolSettings pool, String property, String value, Map<String, String> byQueue,
            List<String> problems) {
        for (String queue : pool.optionalString(property).map(K8sSettings::list).orElse(List.of())) {
            String other = byQueue.putIfAbsent(queue, value);
            if (other != null && !other.equals(value)) {
                problems.add(pool.key(property) + " names '" + queue + "', which another pool's " + property
                        + " names too: each queue's workloads are one pool's demand");
            }
        }
    }

    private static List<String> list(String text) {
        return Arrays.stream(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
