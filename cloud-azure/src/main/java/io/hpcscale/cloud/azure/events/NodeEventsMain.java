package io.hpcscale.cloud.azure.events;

import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.common.config.Program;
import java.util.Map;
import picocli.CommandLine;

/**
 * The node-side program {@code hpcscale-node-events}: {@code run} as a service, {@code once} for one poll, and
 * {@code check}, the health check of this boot.
 */
public final class NodeEventsMain {
    public static final Program PROGRAM = new Program("hpcscale-node-events", "On a compute node in Azure: watches "
            + "the instance metadata service's Scheduled Events for this VM and tells the agent, through the store, to "
            + "take the node out of service (and requeue its jobs before a Spot eviction or a deletion); lets a "
            + "deletion or a restart go ahead once the node is empty; and runs the node's health check at boot.");

    private NodeEventsMain() {
    }

    public static CommandLine commandLine(Map<String, String> environment) {
        CommandLine commandLine = Cli.commandLine(new RootCommand(PROGRAM));
        commandLine.addSubcommand("run", new NodeEventsCommand(false, environment));
        commandLine.addSubcommand("once", new NodeEventsCommand(true, environment));
        commandLine.addSubcommand("check", new NodeCheckCommand(environment));
        return commandLine;
    }

    public static void main(String[] args) {
        System.exit(Cli.execute(commandLine(System.getenv()), args));
    }
}
