package io.hpcscale.simulator.cli;

import io.hpcscale.common.config.ConfigCatalog;
import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/** The simulate command's hpcscale options default to the settings' defaults, so a replay shows what ships. */
final class PoolSettingDefaults implements IDefaultValueProvider {
    private static final Map<String, String> KEY_BY_OPTION = Map.ofEntries(
            Map.entry("--min", "pool.<name>.min"),
            Map.entry("--idle-timeout", "pool.<name>.idleTimeout"),
            Map.entry("--idle-min", "pool.<name>.idleTimeoutMin"),
            Map.entry("--idle-max", "pool.<name>.idleTimeoutMax"),
            Map.entry("--warm", "pool.<name>.warm"),
            Map.entry("--max-start", "pool.<name>.maxStartPerCycle"),
            Map.entry("--max-stop", "pool.<name>.maxStopPerCycle"),
            Map.entry("--agent-quick-interval", "agent.quickInterval"),
            Map.entry("--scaler-quick-interval", "scaler.quickInterval"));

    private final ConfigCatalog catalog = ConfigCatalog.installed();

    @Override
    public String defaultValue(ArgSpec argSpec) {
        if (argSpec instanceof OptionSpec option && KEY_BY_OPTION.containsKey(option.longestName())) {
            return catalog.require(KEY_BY_OPTION.get(option.longestName())).defaultValue();
        }
        return null;
    }
}
