package io.hpcscale.scaler.pool;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.common.config.Settings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The pools of the scaler's configuration, with the checks that span several keys. */
public final class PoolConfigs {
    private PoolConfigs() {
    }

    /** @throws ConfigException when no pool is configured or a pool's settings contradict each other */
    public static Map<String, PoolConfig> fromSettings(Settings settings) {
        if (settings.poolNames().isEmpty()) {
            throw new ConfigException("no pools are configured: add pool.<name>.provider, .cpus, .memoryMb and .max "
                    + "for each scale set hpcscale should scale (see config.example.properties)");
        }
        Map<String, PoolConfig> pools = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (String name : settings.poolNames()) {
            PoolSettings pool = settings.pool(name);
            int min = pool.intValue("min");
            int max = pool.intValue("max");
            if (min > max) {
                problems.add(pool.key("min") + "=" + min + " is more than " + pool.key("max") + "=" + max
                        + ": min must not exceed max");
                continue;
            }
            pools.put(name, new PoolConfig(name,
                    new VmShape(pool.intValue("cpus"), pool.integer("memoryMb"), pool.intValue("gpus")),
                    min, max,
                    pool.duration("idleTimeout"), pool.duration("bootTimeout"), pool.bool("countHeldJobs"),
                    StopAction.fromSetting(pool.string("stopAction")), pool.intValue("maxStartPerCycle"),
                    pool.intValue("maxStopPerCycle"), pool.intValue("bootFailuresBeforeBackoff"),
                    pool.duration("capacityBackoff"), pool.bool("slurmPowerSaving")));
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return pools;
    }
}
