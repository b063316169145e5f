package io.hpcscale.agent.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Taints as kubectl writes them, tolerated as the kube-scheduler tolerates them. */
class PoolTaintsTest {
    private static final Taint GPU = PoolTaints.parse("nvidia.com/gpu=present:NoSchedule").get(0);

    private static Toleration toleration(String key, String operator, String value, String effect) {
        return new TolerationBuilder().withKey(key).withOperator(operator).withValue(value).withEffect(effect)
                .build();
    }

    @Test
    void readsTaintsAsKubectlWritesThemAndRefusesOthersSayingHow() {
        List<Taint> taints = PoolTaints.parse("a=1:NoSchedule, b:NoExecute");
        assertEquals(List.of("a", "b"), taints.stream().map(Taint::getKey).toList());
        assertEquals(null, taints.get(1).getValue());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PoolTaints.parse("a=1"));
        assertTrue(e.getMessage().contains("key[=value]:Effect"), e.getMessage());
    }

    @Test
    void aTolerationMatchesByKeyOperatorValueAndEffect() {
        assertTrue(PoolTaints.tolerates(toleration("nvidia.com/gpu", "Exists", null, null), GPU));
        assertTrue(PoolTaints.tolerates(toleration("nvidia.com/gpu", "Equal", "present", "NoSchedule"), GPU));
        assertTrue(PoolTaints.tolerates(toleration(null, "Exists", null, null), GPU), "tolerates everything");
        assertFalse(PoolTaints.tolerates(toleration("nvidia.com/gpu", "Equal", "absent", null), GPU));
        assertFalse(PoolTaints.tolerates(toleration("nvidia.com/gpu", "Exists", null, "NoExecute"), GPU));
        assertFalse(PoolTaints.tolerates(toleration("other", "Exists", null, null), GPU));
    }

    @Test
    void onlyATaintThatKeepsPodsOffCounts() {
        PoolTaints taints = new PoolTaints(Map.of("gpu", PoolTaints.parse("x:PreferNoSchedule,nvidia.com/gpu"
                + "=present:NoSchedule")));
        assertFalse(taints.allows("gpu", List.of()));
        assertTrue(taints.allows("gpu", List.of(toleration("nvidia.com/gpu", "Exists", null, null))),
                "a PreferNoSchedule taint is a preference");
        assertTrue(taints.allows("cpu", List.of()), "a pool without taints takes any pod");
    }
}
