package io.hpcscale.agent.k8s;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.hpcscale.common.model.Chunk;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one pod asks of the node it runs on, as the kube-scheduler counts it: the containers' requests (a limit where
 * no request is given, as the API server defaults it), the sidecars (init containers that keep running) on top,
 * at least the largest plain init container, plus the pod's overhead.
 *
 * @param cpus        cores
 * @param memoryBytes bytes
 * @param gpus        devices of any of the resources counted as GPUs
 */
record PodRequests(BigDecimal cpus, BigDecimal memoryBytes, long gpus) {
    static final PodRequests NONE = new PodRequests(BigDecimal.ZERO, BigDecimal.ZERO, 0);
    private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024);

    /** @throws IllegalArgumentException a quantity that is not one */
    static PodRequests of(PodSpec spec, List<String> gpuResources) {
        PodRequests running = NONE;
        for (Container container : nullSafe(spec.getContainers())) {
            running = running.plus(ofContainer(container, gpuResources));
        }
        PodRequests sidecars = NONE;
        PodRequests initPeak = NONE;
        for (Container init : nullSafe(spec.getInitContainers())) {
            PodRequests own = ofContainer(init, gpuResources);
            if ("Always".equals(init.getRestartPolicy())) {
                sidecars = sidecars.plus(own);
            } else {
                initPeak = initPeak.max(sidecars.plus(own));
            }
        }
        PodRequests total = running.plus(sidecars).max(initPeak);
        return spec.getOverhead() == null ? total : total.plus(ofQuantities(spec.getOverhead(), gpuResources));
    }

    /** A resource list as Kubernetes writes one: {@code cpu: "500m"}, {@code memory: 4Gi}, {@code nvidia.com/gpu: 1}. */
    static PodRequests ofQuantities(Map<String, Quantity> quantities, List<String> gpuResources) {
        if (quantities == null) {
            return NONE;
        }
        BigDecimal gpus = BigDecimal.ZERO;
        for (String gpu : gpuResources) {
            gpus = gpus.add(amount(quantities.get(gpu)));
        }
        return new PodRequests(amount(quantities.get("cpu")), amount(quantities.get("memory")),
                gpus.setScale(0, RoundingMode.CEILING).longValueExact());
    }

    /** One chunk of {@code count} such pods, each rounded up to whole CPUs and MiB. */
    Chunk chunk(int count) {
        return new Chunk(count, cpus.setScale(0, RoundingMode.CEILING).intValueExact(),
                memoryBytes.divide(MIB, 0, RoundingMode.CEILING).longValueExact(), Math.toIntExact(gpus));
    }

    /** A share of this total for each of {@code members} (a gang's minimum resources per member), rounded up. */
    PodRequests perMember(int members) {
        BigDecimal n = BigDecimal.valueOf(members);
        return new PodRequests(cpus.divide(n, 3, RoundingMode.CEILING), memoryBytes.divide(n, 0, RoundingMode.CEILING),
                (gpus + members - 1) / members);
    }

    PodRequests plus(PodRequests other) {
        return new PodRequests(cpus.add(other.cpus), memoryBytes.add(other.memoryBytes), gpus + other.gpus);
    }

    private PodRequests max(PodRequests other) {
        return new PodRequests(cpus.max(other.cpus), memoryBytes.max(other.memoryBytes), Math.max(gpus, other.gpus));
    }

    private static PodRequests ofContainer(Container container, List<String> gpuResources) {
        ResourceRequirements resources = container.getResources();
        if (resources == null) {
            return NONE;
        }
        Map<String, Quantity> requests = resources.getRequests() == null ? Map.of() : resources.getRequests();
        Map<String, Quantity> limits = resources.getLimits() == null ? Map.of() : resources.getLimits();
        Map<String, Quantity> effective = new HashMap<>(limits);
        effective.putAll(requests);
        return ofQuantities(effective, gpuResources);
    }

    private static BigDecimal amount(Quantity quantity) {
        if (quantity == null) {
            return BigDecimal.ZERO;
        }
        BigDecimal amount = quantity.getNumericalAmount();
        if (amount.signum() < 0) {
            throw new IllegalArgumentException("a negative quantity: " + quantity);
        }
        return amount;
    }

    private static <T> List<T> nullSafe(List<T> list) {
        return list == null ? List.of() : list;
    }
}
