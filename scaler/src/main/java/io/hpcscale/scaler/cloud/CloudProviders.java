package io.hpcscale.scaler.cloud;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.cloud.azure.AzureClients;
import io.hpcscale.scaler.cloud.azure.AzureProviders;
import io.hpcscale.scaler.cloud.azure.AzureSettings;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.fixed.StoredTarget;
import io.hpcscale.scaler.fixed.TargetSource;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Makes each pool's provider from {@code pool.<name>.provider} and the provider's own settings. */
public final class CloudProviders {
    private final Settings settings;
    private final CommandRunner runner;
    private final SimulatedCloud simulatedCloud;
    private final CallGate gate;
    private final Function<AzureSettings, AzureClients> azureClients;
    private AzureProviders azure;

    public CloudProviders(Settings settings, CommandRunner runner, SimulatedCloud simulatedCloud, CallGate gate) {
        this(settings, runner, simulatedCloud, gate, AzureClients::new);
    }

    /** @param azureClients makes the Azure clients from the azure.* settings (tests: trusting a local imitation) */
    public CloudProviders(Settings settings, CommandRunner runner, SimulatedCloud simulatedCloud, CallGate gate,
            Function<AzureSettings, AzureClients> azureClients) {
        this.settings = settings;
        this.runner = runner;
        this.simulatedCloud = simulatedCloud;
        this.gate = gate;
        this.azureClients = azureClients;
    }

    /** @throws ConfigException naming every setting the pool's provider lacks or cannot use */
    public CloudProvider forPool(String name) {
        PoolSettings pool = settings.pool(name);
        String provider = pool.string("provider");
        return switch (provider) {
            case "azure" -> azure().forPool(pool);
            case "command" -> command(pool);
            case "simulated" -> simulated(pool);
            default -> throw new ConfigException(pool.key("provider") + "=" + provider + " is not a provider");
        };
    }

    /**
     * Where a fixed pool's count lives: its resource group's tag for an azure pool, the store for the others.
     */
    public TargetSource targetForPool(String name, DocumentStore store, Clock clock) {
        PoolSettings pool = settings.pool(name);
        return "azure".equals(pool.string("provider")) ? azure().targetForPool(pool)
                : new StoredTarget(store, name, clock);
    }

    private CloudProvider command(PoolSettings pool) {
        List<String> problems = new ArrayList<>();
        for (String which : List.of("list", "start", "stop")) {
            if (pool.optionalString("command." + which).isEmpty()) {
                problems.add(pool.key("command." + which) + " is required when " + pool.key("provider")
                        + " = command: " + describe(which));
            }
        }
        if (StopAction.fromSetting(pool.string("stopAction")) == StopAction.DELETE) {
            problems.add(pool.key("stopAction") + " = delete cannot be done by the command provider, which has one "
                    + "stop command: use deallocate or powerOff");
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        CommandLimits limits = new CommandLimits(pool.duration("command.timeout"), pool.key("command.timeout"),
                16L << 20, pool.key("command.list"));
        try {
            return new CommandCloudProvider(runner, CommandCloudProvider.Commands.parse(pool.name(),
                    pool.string("command.list"), pool.string("command.start"), pool.string("command.stop"), limits),
                    gate);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /** The clients of every azure pool, made with the first (the azure.* settings are checked then). */
    private synchronized AzureProviders azure() {
        if (azure == null) {
            azure = new AzureProviders(azureClients.apply(AzureSettings.from(settings)), gate);
        }
        return azure;
    }

    private CloudProvider simulated(PoolSettings pool) {
        if (!simulatedCloud.hasScaleSet(pool.name())) {
            simulatedCloud.addScaleSet(pool.name(), pool.intValue("max"), pool.name() + "-vm",
                    pool.duration("simulated.bootDelay"));
        }
        return simulatedCloud.provider(pool.name());
    }

    private static String describe(String which) {
        return switch (which) {
            case "list" -> "a command printing one line per instance: instance node state";
            case "start" -> "a command starting one instance, with {instance} and/or {node}";
            default -> "a command stopping one instance, with {instance} and/or {node}";
        };
    }
}
