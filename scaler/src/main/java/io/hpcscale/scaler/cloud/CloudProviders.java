package io.hpcscale.scaler.cloud;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.PoolSettings;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.fixed.StoredTarget;
import io.hpcscale.scaler.fixed.TargetSource;
import io.hpcscale.scaler.run.RemovalInbox;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Makes each pool's provider from {@code pool.<name>.provider} and the provider's own settings: the core's
 * {@code command} and {@code simulated}, or a {@link CloudModule} on the class path.
 */
public final class CloudProviders {
    private static final List<String> OWN = List.of("command", "simulated");

    private final Settings settings;
    private final CommandRunner runner;
    private final SimulatedCloud simulatedCloud;
    private final CallGate gate;
    private final Map<String, CloudModule> modules = new LinkedHashMap<>();
    private final Map<String, CloudModule.Cloud> opened = new HashMap<>();

    public CloudProviders(Settings settings, CommandRunner runner, SimulatedCloud simulatedCloud, CallGate gate) {
        this(settings, runner, simulatedCloud, gate, installedModules());
    }

    /** @param modules the clouds pools may name (tests: one whose clients trust a local imitation) */
    public CloudProviders(Settings settings, CommandRunner runner, SimulatedCloud simulatedCloud, CallGate gate,
            List<CloudModule> modules) {
        this.settings = settings;
        this.runner = runner;
        this.simulatedCloud = simulatedCloud;
        this.gate = gate;
        modules.forEach(module -> this.modules.putIfAbsent(module.name(), module));
    }

    /** The clouds on the class path. */
    public static List<CloudModule> installedModules() {
        return ServiceLoader.load(CloudModule.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    /** @throws ConfigException naming every setting the pool's provider lacks or cannot use */
    public CloudProvider forPool(String name) {
        PoolSettings pool = settings.pool(name);
        String provider = pool.string("provider");
        return switch (provider) {
            case "command" -> command(pool);
            case "simulated" -> simulated(pool);
            default -> cloudOf(name).orElseThrow(() -> new ConfigException(pool.key("provider") + "=" + provider
                    + " is not a provider here: the providers are " + String.join(", ", providers())
                    + " (a cloud comes with its module's jar, e.g. azure with the hpcscale-scaler package)"))
                    .forPool(pool);
        };
    }

    /** Where a fixed pool's count lives: where its cloud keeps it, else the store. */
    public TargetSource targetForPool(String name, DocumentStore store, Clock clock) {
        return targetInCloud(name).orElseGet(() -> new StoredTarget(store, name, clock));
    }

    /** A fixed pool's count where its cloud keeps it; empty when the store keeps it. */
    public Optional<TargetSource> targetInCloud(String name) {
        return cloudOf(name).flatMap(cloud -> cloud.targetForPool(settings.pool(name)));
    }

    /** The cloud of a pool whose provider is a module's, made the first time one of its pools asks. */
    public synchronized Optional<CloudModule.Cloud> cloudOf(String name) {
        CloudModule module = modules.get(settings.pool(name).string("provider"));
        if (module == null) {
            return Optional.empty();
        }
        return Optional.of(opened.computeIfAbsent(module.name(), n -> module.open(settings, gate)));
    }

    /** The removal queue of the first cloud whose settings configure one; none when none does. */
    public RemovalInbox removalInbox(Clock clock) {
        for (CloudModule module : modules.values()) {
            Optional<RemovalInbox> queue = module.removalInbox(settings, clock);
            if (queue.isPresent()) {
                return queue.get();
            }
        }
        return RemovalInbox.none();
    }

    private List<String> providers() {
        List<String> names = new ArrayList<>(modules.keySet());
        names.addAll(OWN);
        return names;
    }

    private CloudProvider command(PoolSettings pool) {
        List<String> problems = new ArrayList<>();
        for (String which : List.of("list", "start", "stop")) {
            if (pool.optionalString("command." + which).isEmpty()) {
                problems.add(pool.key("command." + which) + " is required when " + pool.key("provider")
                        + " = command: " + describe(which));
            }
        }
        StopAction stop = StopAction.fromSetting(pool.string("stopAction"));
        if (stop == StopAction.DELETE || stop == StopAction.HIBERNATE) {
            problems.add(pool.key("stopAction") + " = " + stop.setting() + " cannot be done by the command provider, "
                    + "which has one stop command: use deallocate or powerOff, and make " + pool.key("command.stop")
                    + " do what stopping should do");
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

    private CloudProvider simulated(PoolSettings pool) {
        if (!simulatedCloud.hasScaleSet(pool.name())) {
            simulatedCloud.addScaleSet(pool.name(), pool.intValue("max"), pool.name() + "-vm",
                    pool.duration("simulated.bootDelay"));
            if (pool.optionalString("simulated.resumeDelay").isPresent()) {
                Duration resume = pool.duration("simulated.resumeDelay");
                simulatedCloud.resumeDelay(pool.name(), () -> resume);
            }
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
