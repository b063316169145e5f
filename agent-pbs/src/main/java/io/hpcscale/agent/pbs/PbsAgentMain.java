package io.hpcscale.agent.pbs;

import io.hpcscale.common.agent.cli.AgentCli;
import io.hpcscale.common.agent.cli.AgentDefinition;
import io.hpcscale.common.config.Component;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandRunner;
import java.time.ZoneId;

/** {@code hpcscale-agent-pbs}: the agent for PBS Professional and OpenPBS. */
public final class PbsAgentMain {
    private PbsAgentMain() {
    }

    public static AgentDefinition definition() {
        return new AgentDefinition(Component.PBS_AGENT, "queue", PbsAgentMain::adapter);
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
