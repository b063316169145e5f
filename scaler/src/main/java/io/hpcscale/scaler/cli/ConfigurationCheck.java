package io.hpcscale.scaler.cli;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoreFactory;
import io.hpcscale.scaler.check.Finding;
import io.hpcscale.scaler.check.NodeMatch;
import io.hpcscale.scaler.check.NodeReports;
import io.hpcscale.scaler.check.PoolCheck;
import io.hpcscale.scaler.check.TimeLimits;
import io.hpcscale.scaler.cloud.CallGate;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.CloudModule;
import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.cloud.CloudProviders;
import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import io.hpcscale.scaler.plan.CustomDecisions;
import io.hpcscale.scaler.pool.DemandModel;
import io.hpcscale.scaler.pool.PoolConfig;
import io.hpcscale.scaler.pool.PoolConfigs;
import io.hpcscale.scaler.plan.Words;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks each configured pool against its provider and the store, reading only: what {@code check} prints. The
 * configuration is validated whole first, as the scaler validates it, so that a pool's setting problems end the
 * command with all of them listed rather than as findings one at a time.
 */
final class ConfigurationCheck implements AutoCloseable {
    private final Settings settings;
    private final Map<String, PoolConfig> configs;
    private final Map<String, CloudProvider> providers;
    private final CloudProviders factory;
    private final NodeReports nodes;

    private ConfigurationCheck(Settings settings, Map<String, PoolConfig> configs,
            Map<String, CloudProvider> providers, CloudProviders factory, NodeReports nodes) {
        this.settings = settings;
        this.configs = configs;
        this.providers = providers;
        this.factory = factory;
        this.nodes = nodes;
    }

    /** @throws ConfigException listing every pool setting that is missing or cannot be used */
    static ConfigurationCheck from(Settings settings, Clock clock, List<CloudModule> clouds) {
        Map<String, PoolConfig> configs = PoolConfigs.fromSettings(settings);
        CustomDecisions.check(configs, CustomDecisions.installed(settings));
        // A cloud's check signs in and probes with its providers' own clients: one credential, as in the scaler.
        CloudProviders factory = new CloudProviders(settings, new ZtExecCommandRunner(), new SimulatedCloud(clock),
                CallGate.ALWAYS_OPEN, clouds);
        Map<String, CloudProvider> providers = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (String name : configs.keySet()) {
            try {
                providers.put(name, factory.forPool(name));
            } catch (ConfigException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return new ConfigurationCheck(settings, configs, providers, factory,
                new NodeReports(() -> StoreFactory.open(settings, clock)));
    }

    List<PoolCheck> run() throws InterruptedException {
        List<PoolCheck> checks = new ArrayList<>();
        for (String name : configs.keySet()) {
            checks.add(new PoolCheck(name, provider(settings, name), check(name)));
        }
        return checks;
    }

    private List<Finding> check(String name) throws InterruptedException {
        String kind = provider(settings, name);
        if (kind.equals("simulated")) {
            return List.of(Finding.ok("simulated: its instances exist only inside one scaler process (the demo, the "
                    + "simulator), so there is nothing outside to check"));
        }
        List<Finding> findings = new ArrayList<>();
        var cloud = factory.cloudOf(name);
        if (cloud.isPresent()) {
            CloudModule.PoolFindings result = cloud.get().check(configs.get(name), settings.pool(name));
            findings.addAll(result.findings());
            if (!result.listable()) {
                return findings;
            }
        }
        CloudProvider provider = providers.get(name);
        List<Instance> instances;
        try {
            instances = provider.list();
        } catch (CloudException e) {
            findings.add(Finding.problem("instances: " + e.getMessage()));
            return findings;
        }
        findings.add(Finding.ok("instances: " + Words.count(instances.size(), "instance") + " listed by "
                + provider.describe() + byState(instances)));
        try {
            if (!nodes.anyAgentServes(name)) {
                findings.add(Finding.ok("nodes: no agent has reported pool " + name + " yet, so its nodes are not "
                        + "compared with the instances. Start the agent on the scheduler's head node with this "
                        + "store (systemctl enable --now hpcscale-agent-pbs, or hpcscale-agent-slurm), then run "
                        + "check again; until an agent reports, the scaler drains and stops nothing in the pool and "
                        + "starts nothing beyond min"));
                return findings;
            }
            findings.addAll(NodeMatch.compare(name, provider.describe(), naming(name), instances,
                    nodes.inPool(name)));
            if (configs.get(name).demand() == DemandModel.BACKFILL) {
                findings.add(TimeLimits.of(name, nodes.jobsInPool(name)));
            }
        } catch (StoreException e) {
            findings.add(Finding.problem("nodes: the nodes the agent reports cannot be read, so they are not "
                    + "compared with the instances: " + e.getMessage() + " (store.type = "
                    + settings.string("store.type") + ")"));
        }
        return findings;
    }

    /** The setting that names an instance's node, with its value: what to change when names do not match. */
    private String naming(String name) {
        return factory.cloudOf(name).map(cloud -> cloud.nodeNaming(settings.pool(name)))
                .orElse("the node column of pool." + name + ".command.list");
    }

    private static String byState(List<Instance> instances) {
        if (instances.isEmpty()) {
            return "";
        }
        Map<PowerState, Integer> counts = new EnumMap<>(PowerState.class);
        instances.forEach(i -> counts.merge(i.state(), 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        counts.forEach((state, n) -> parts.add(n + " " + state.name().toLowerCase(Locale.ROOT)));
        return ": " + String.join(", ", parts);
    }

    private static String provider(Settings settings, String pool) {
        return settings.pool(pool).string("provider");
    }

    @Override
    public void close() {
        nodes.close();
    }
}
