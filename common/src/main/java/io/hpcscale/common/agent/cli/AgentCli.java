package io.hpcscale.common.agent.cli;

import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.cli.DocumentsCommand;
import io.hpcscale.common.cli.RootCommand;
import picocli.CommandLine;

/** The command line every agent program shares: {@code run}, {@code once}, {@code check} and {@code documents}. */
public final class AgentCli {
    private AgentCli() {
    }

    public static CommandLine commandLine(AgentDefinition definition) {
        CommandLine commandLine = Cli.commandLine(new RootCommand(definition.program()));
        commandLine.addSubcommand("run", new AgentRunCommand(definition));
        commandLine.addSubcommand("once", new AgentOnceCommand(definition));
        commandLine.addSubcommand("check", new AgentCheckCommand(definition));
        commandLine.addSubcommand("documents", new DocumentsCommand());
        return commandLine;
    }

    public static int execute(AgentDefinition definition, String... args) {
        return Cli.execute(commandLine(definition), args);
    }
}
