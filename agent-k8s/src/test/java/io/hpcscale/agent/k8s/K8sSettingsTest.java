package io.hpcscale.agent.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the agent refuses in its settings, naming the key, before it reads anything. */
class K8sSettingsTest {

    private static String refusal(Map<String, String> lines) {
        return assertThrows(ConfigException.class, () -> K8sTestSettings.of(lines)).getMessage();
    }

    @Test
    void aTaintNotWrittenAsKubectlWritesItIsRefusedNamingTheKey() {
        String message = refusal(Map.of("pool.gpu.taints", "nvidia.com/gpu"));
        assertTrue(message.contains("pool.gpu.taints") && message.contains("key[=value]:Effect"), message);
    }

    @Test
    void aDefaultPoolThatIsNotConfiguredIsRefused() {
        String message = refusal(Map.of("agent.k8s.defaultPool", "gpus"));
        assertTrue(message.contains("agent.k8s.defaultPool") && message.contains("[cpu, gpu]"), message);
    }

    @Test
    void aClusterQueueClaimedByTwoPoolsIsRefused() {
        String message = refusal(Map.of("pool.cpu.clusterQueues", "team", "pool.gpu.clusterQueues", "team"));
        assertTrue(message.contains("'team'"), message);
    }

    @Test
    void aPoolsLabelValueIsItsNameUnlessSaid() {
        K8sSettings settings = K8sTestSettings.of(Map.of("pool.gpu.poolLabelValue", "a100",
                "pool.gpu.clusterQueues", "team"));
        assertEquals(Map.of("team", "a100"), settings.valueOfClusterQueue());
    }
}
