package io.hpcscale.cloud.azure.events;

import io.hpcscale.cloud.azure.removal.InstanceMetadata;
import io.hpcscale.cloud.azure.removal.InstanceMetadata.InstanceMetadataException;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.common.store.StoreFactory;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code check}: the health check of this boot, for the unit {@code hpcscale-node-check}, which runs it before the
 * scheduler's daemon. Exits 0 when the check passed or the node's pool has none, 1 when it failed or could not be
 * reported.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class,
        description = "Run this node's health check (its pool's healthCheck) and report it, before the scheduler's "
                + "daemon starts.")
final class NodeCheckCommand implements Callable<Integer> {
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(3);

    private final Map<String, String> environment;

    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    NodeCheckCommand(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public Integer call() throws InterruptedException {
        Settings settings = root.loadSettings();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String name = spec.commandLine().getParent().getCommandName() + " check";
        if (settings.poolNames().stream().noneMatch(p -> settings.pool(p).optionalString("healthCheck").isPresent())) {
            out.println("no pool has a healthCheck: nothing to check");
            out.flush();
            return 0;
        }
        String node = settings.optionalString("node.name").orElseGet(NodeEventsCommand::shortHostName);
        Clock clock = Clock.systemUTC();
        try (ClusterLoadStore store = StoreFactory.open(settings, clock)) {
            NodeHealthCheck check = new NodeHealthCheck(new ZtExecCommandRunner(), new DocumentStore(store), clock,
                    node);
            String pool;
            try {
                pool = settings.optionalString("node.pool").orElse(null);
                if (pool == null) {
                    pool = poolOfScaleSet(settings, scaleSet());
                }
            } catch (InstanceMetadataException | ConfigException e) {
                // Some pool checks its nodes and this one cannot tell which it is: a failed check, so that the
                // last boot's result does not stand for this one and the node takes no job.
                String why = "its pool cannot be told: " + (e instanceof ConfigException c
                        ? String.join("; ", c.problems()) : e.getMessage()) + "; set node.pool";
                check.fail(why, settings.duration("node.healthCheckHoldWait"));
                err.println(name + ": " + why);
                err.flush();
                return 1;
            }
            Optional<String> command = settings.pool(pool).optionalString("healthCheck");
            if (command.isEmpty()) {
                out.println("pool " + pool + " has no healthCheck: nothing to check");
                out.flush();
                return 0;
            }
            HealthDocument result = check.run(command.get(), settings.duration("node.healthCheckTimeout"),
                    settings.duration("node.healthCheckHoldWait"));
            out.println("node " + node + " (pool " + pool + "): " + result.holdReason());
            out.flush();
            return result.state() == HealthDocument.State.PASSED ? 0 : 1;
        } catch (StoreException e) {
            err.println(name + ": the store did not take the check's result (" + e.getMessage() + "): the agent "
                    + "cannot hold this node; fix the store settings and run it again");
            err.flush();
            return 1;
        }
    }

    /** This VM's scale set, asked of the metadata service up to three times: it may answer slowly at boot. */
    private String scaleSet() throws InstanceMetadataException, InterruptedException {
        InstanceMetadata metadata = new InstanceMetadata(URI.create(environment.getOrDefault(
                NodeEventsCommand.IMDS_ENVIRONMENT, InstanceMetadata.AZURE.toString())), METADATA_TIMEOUT);
        for (int attempt = 1; ; attempt++) {
            try {
                return metadata.read().scaleSet();
            } catch (InstanceMetadataException e) {
                if (attempt == 3) {
                    throw e;
                }
                Thread.sleep(2000);
            }
        }
    }

    /** The one pool whose {@code azure.scaleSet} is this VM's scale set. */
    static String poolOfScaleSet(Settings settings, String scaleSet) {
        List<String> pools = settings.poolNames().stream().filter(pool -> settings.pool(pool)
                .optionalString("azure.scaleSet").map(scaleSet::equalsIgnoreCase).orElse(false)).toList();
        if (pools.size() != 1) {
            throw new ConfigException("this VM's scale set " + scaleSet + " is the azure.scaleSet of "
                    + (pools.isEmpty() ? "no pool" : "pools " + pools) + ": set node.pool to the pool this node "
                    + "belongs to");
        }
        return pools.get(0);
    }
}
