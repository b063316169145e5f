package io.hpcscale.cloud.azure.events;

import io.hpcscale.cloud.azure.removal.InstanceMetadata;
import io.hpcscale.cloud.azure.removal.InstanceMetadata.InstanceMetadataException;
import io.hpcscale.cloud.azure.removal.InstanceMetadata.VmIdentity;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.loop.ServiceLoop;
import io.hpcscale.common.store.ClusterLoadStore;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreFactory;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code run}: polls every {@code node.pollInterval} until SIGTERM, which lets the poll in flight finish; {@code once}:
 * one poll, printing what it did. Which VM this is comes from the instance metadata service, once, at start.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = io.hpcscale.common.cli.Version.class,
        description = "Watch this VM's Azure Scheduled Events (run), or look once (once).")
final class NodeEventsCommand implements Callable<Integer> {
    /** The instance metadata service's address, for tests; as {@code hpcscale-delete-me} reads it. */
    static final String IMDS_ENVIRONMENT = "HPCSCALE_IMDS_ENDPOINT";
    /** Longest poll interval that still leaves a Spot eviction's 30 s notice for the agent and the requeue. */
    static final Duration LONGEST_POLL = Duration.ofSeconds(10);
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(3);
    /** Microsoft Learn: the first request for Scheduled Events switches them on and may take two minutes. */
    private static final Duration FIRST_REQUEST_TIMEOUT = Duration.ofMinutes(2);
    private static final Logger log = LoggerFactory.getLogger(NodeEventsCommand.class);

    private final boolean once;
    private final Map<String, String> environment;

    @ParentCommand
    private RootCommand root;

    @Spec
    private CommandSpec spec;

    NodeEventsCommand(boolean once, Map<String, String> environment) {
        this.once = once;
        this.environment = Map.copyOf(environment);
    }

    @Override
    public Integer call() throws InterruptedException {
        Settings settings = root.loadSettings();
        Duration poll = settings.duration("node.pollInterval");
        if (poll.compareTo(LONGEST_POLL) > 0) {
            throw new ConfigException("node.pollInterval = " + poll.toSeconds() + "s is too long: a Spot eviction "
                    + "gives 30 s notice, which the poll, the agent and the requeue must share; set at most "
                    + LONGEST_POLL.toSeconds() + "s");
        }
        String nodeName = settings.optionalString("node.name").orElseGet(NodeEventsCommand::shortHostName);
        URI imds = URI.create(environment.getOrDefault(IMDS_ENVIRONMENT, InstanceMetadata.AZURE.toString()));
        VmIdentity self;
        try {
            self = new InstanceMetadata(imds, METADATA_TIMEOUT).read();
        } catch (InstanceMetadataException e) {
            spec.commandLine().getErr().println(spec.commandLine().getCommandName() + ": " + e.getMessage());
            return 1;
        }
        Clock clock = Clock.systemUTC();
        try (ClusterLoadStore store = StoreFactory.open(settings, clock)) {
            NodeNotices notices = new NodeNotices(new ScheduledEventsEndpoint(imds, FIRST_REQUEST_TIMEOUT,
                    METADATA_TIMEOUT), new DocumentStore(store), nodeName, self.name());
            if (once) {
                PrintWriter out = spec.commandLine().getOut();
                out.println("node " + nodeName + " (VM " + self.name() + "): " + notices.poll(clock.instant()).name()
                        .toLowerCase(java.util.Locale.ROOT));
                out.flush();
                return 0;
            }
            log.info("watching Azure Scheduled Events for VM {} (node {}) every {}s, in {}", self.name(), nodeName,
                    poll.toSeconds(), store.describe());
            ServiceLoop loop = new ServiceLoop(clock, poll, now -> {
                notices.poll(now);
                return null;
            });
            loop.runUntilShutdown(poll.plusSeconds(5), () -> { });
        }
        return 0;
    }

    static String shortHostName() {
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            name = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        int dot = name.indexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}
