package io.hpcscale.agent.k8s;

import io.hpcscale.common.config.EveryModule;
import io.hpcscale.common.config.Settings;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The agent's settings as a configuration file with these lines would give them, pools cpu and gpu declared, read
 * with every module's keys as the launcher gives them.
 */
final class K8sTestSettings {
    private K8sTestSettings() {
    }

    static Settings settings(Map<String, String> lines) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("pool.cpu.max", "10");
        values.put("pool.gpu.max", "4");
        values.putAll(lines);
        return EveryModule.loader().fromMap(values, K8sAgentMain.PROGRAM);
    }

    static K8sSettings of(Map<String, String> lines) {
        return K8sSettings.from(settings(lines));
    }
}
