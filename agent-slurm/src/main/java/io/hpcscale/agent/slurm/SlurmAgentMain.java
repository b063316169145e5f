package io.hpcscale.agent.slurm;

import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.agent.cli.AgentCli;
import io.hpcscale.common.agent.cli.AgentDefinition;
import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.config.Program;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.common.model.PowerDocument;
import java.time.ZoneId;
import java.util.Locale;
import picocli.CommandLine;

/**
 * {@code hpcscale-agent-slurm}: the agent for Slurm, with {@code resume} and {@code suspend} for Slurm's power
 * saving.
 */
public final class SlurmAgentMain {
    public static final Program PROGRAM = new Program("hpcscale-agent-slurm", "The hpcscale agent for Slurm: every "
            + "agent.interval it reads squeue and sinfo, writes what changed to the ClusterLoad store, and carries out "
            + "drain requests.");

    private SlurmAgentMain() {
    }

    public static AgentDefinition definition() {
        return new AgentDefinition(PROGRAM, "partition", SlurmAgentMain::adapter,
                settings -> PoolMap.MultiQueueRule.valueOf(settings.string("agent.slurm.multiPartition")
                        .toUpperCase(Locale.ROOT)));
    }

    static SlurmAdapter adapter(Settings settings, CommandRunner runner) {
        CommandLimits limits = new CommandLimits(settings.duration("agent.commandTimeout"), "agent.commandTimeout",
                settings.size("agent.commandMaxOutput"), "agent.commandMaxOutput");
        SlurmCommands commands = new SlurmCommands(settings.string(SlurmCommands.SQUEUE_SETTING),
                settings.string(SlurmCommands.SINFO_SETTING), settings.string(SlurmCommands.SCONTROL_SETTING),
                settings.string(SlurmCommands.SDIAG_SETTING), settings.optionalString("agent.slurm.slurmConf")
                        .orElse(null), limits);
        SlurmAdapter.Format format = SlurmAdapter.Format.valueOf(settings.string("agent.slurm.format")
                .toUpperCase(Locale.ROOT));
        return new SlurmAdapter(runner, commands, format, ZoneId.systemDefault());
    }

    public static CommandLine commandLine() {
        CommandLine commandLine = AgentCli.commandLine(definition());
        commandLine.addSubcommand("resume", new CommandLine(new PowerRequestCommand(PowerDocument.Action.resume))
                .setCommandName("resume"));
        commandLine.addSubcommand("suspend", new CommandLine(new PowerRequestCommand(PowerDocument.Action.suspend))
                .setCommandName("suspend"));
        commandLine.getSubcommands().get("resume").getCommandSpec().usageMessage().description(
                "Slurm's ResumeProgram: ask the scaler to start these nodes' instances.");
        commandLine.getSubcommands().get("suspend").getCommandSpec().usageMessage().description(
                "Slurm's SuspendProgram: ask the scaler to stop these nodes' instances.");
        return commandLine;
    }

    public static void main(String[] args) {
        System.exit(Cli.execute(commandLine(), args));
    }
}
