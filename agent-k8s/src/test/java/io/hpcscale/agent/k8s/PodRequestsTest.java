package io.hpcscale.agent.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hpcscale.common.model.Chunk;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pod's requests as the kube-scheduler adds them up. */
class PodRequestsTest {
    private static final List<String> GPUS = List.of("nvidia.com/gpu", "amd.com/gpu");

    private static ContainerBuilder container(String name, Map<String, String> requests, Map<String, String> limits) {
        ContainerBuilder container = new ContainerBuilder().withName(name).withNewResources().endResources();
        requests.forEach((k, v) -> container.editResources().addToRequests(k, new Quantity(v)).endResources());
        limits.forEach((k, v) -> container.editResources().addToLimits(k, new Quantity(v)).endResources());
        return container;
    }

    @Test
    void containersAddUpAndALimitStandsForAMissingRequest() {
        PodSpec spec = new PodSpecBuilder().withContainers(
                container("a", Map.of("cpu", "1500m", "memory", "1Gi"), Map.of()).build(),
                container("b", Map.of(), Map.of("cpu", "2", "memory", "512Mi", "nvidia.com/gpu", "2")).build())
                .build();
        assertEquals(new Chunk(3, 4, 1536, 2), PodRequests.of(spec, GPUS).chunk(3));
    }

    @Test
    void sidecarsRunBesideTheContainersAndAPlainInitContainerOnlyRaisesThePeak() {
        PodSpec spec = new PodSpecBuilder()
                .withInitContainers(container("setup", Map.of("cpu", "8", "memory", "1Gi"), Map.of()).build(),
                        container("proxy", Map.of("cpu", "500m", "memory", "128Mi"), Map.of())
                                .withRestartPolicy("Always").build())
                .withContainers(container("main", Map.of("cpu", "2", "memory", "4Gi"), Map.of()).build())
                .withOverhead(Map.of("cpu", new Quantity("250m")))
                .build();
        PodRequests requests = PodRequests.of(spec, GPUS);
        assertEquals(new Chunk(1, 9, 4224, 0), requests.chunk(1), "max(8 setup, 2 + 0.5 proxy) + 0.25 overhead = 8.25"
                + " cpus; memory max(1Gi, 4Gi + 128Mi)");
    }

    @Test
    void aGangsMinimumIsSharedByItsMembersRoundedUp() {
        PodRequests total = PodRequests.ofQuantities(Map.of("cpu", new Quantity("10"), "memory", new Quantity("3Gi"),
                "nvidia.com/gpu", new Quantity("3")), GPUS);
        assertEquals(new Chunk(4, 3, 768, 1), total.perMember(4).chunk(4));
    }

    @Test
    void aQuantityThatIsNoneIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PodRequests.ofQuantities(Map.of("cpu",
                new Quantity("lots")), GPUS));
    }
}
