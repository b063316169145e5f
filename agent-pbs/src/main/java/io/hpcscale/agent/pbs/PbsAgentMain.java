package io.hpcscale.agent.pbs;

import io.hpcscale.common.agent.cli.AgentCli;
import io.hpcscale.common.agent.cli.AgentDefinition;
import io.hpcscale.common.config.Program;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandRunner;
import java.time.ZoneId;

/** {@code hpcscale-agent-pbs}: the agent for PBS Professional and OpenPBS. */
public final class PbsAgentMain {
    public static final Program PROGRAM = new Program("hpcscale-agent-pbs", "The hpcscale agent for PBS Professional "
            + "and OpenPBS: every agent.interval it reads qstat and pbsnodes, writes what changed to the ClusterLoad "
            + "store, and carries out drain requests.");

    private PbsAgentMain() {
    }

    public static AgentDefinition definition() {
        return new AgentDefinition(PROGRAM, "queue", PbsAgentMain::adapter);
    }

    static PbsAdapter adapter(Settings settings, CommandRunner runner) {
        CommandLimits limits = new CommandLimits(settings.duration("agent.commandTimeout"), "agent.commandTimeout",
                settings.size("agent.commandMaxOutput"), "agent.commandMaxOutput");
        PbsCommands commands = new PbsCommands(settings.string(PbsCommands.QSTAT_SETTING),
                settings.string(PbsCommands.PBSNODES_SETTING), limits);
        return new PbsAdapter(runner, commands, ZoneId.systemDefault());
    }

    public static void main(String[] args) {
        System.exit(AgentCli.execute(definition(), args));
    }
}
