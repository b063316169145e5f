package io.hpcscale.scaler.cli;

import io.hpcscale.common.cli.Cli;
import io.hpcscale.common.cli.DocumentsCommand;
import io.hpcscale.common.cli.RootCommand;
import io.hpcscale.scaler.Programs;
import picocli.CommandLine;

/** The production scaler's commands: run, once, plan, check, set-capacity, status, events, usage, documents. */
public final class ScalerMain {
    private ScalerMain() {
    }

    public static CommandLine commandLine() {
        CommandLine commandLine = Cli.commandLine(new RootCommand(Programs.SCALER));
        commandLine.addSubcommand("run", new ScalerRunCommand());
        commandLine.addSubcommand("once", new ScalerOnceCommand());
        commandLine.addSubcommand("plan", new ScalerPlanCommand());
        commandLine.addSubcommand("check", new CheckCommand());
        commandLine.addSubcommand("set-capacity", new SetCapacityCommand());
        commandLine.addSubcommand("resume", new ResumeCommand());
        commandLine.addSubcommand("status", new StatusCommand());
        commandLine.addSubcommand("events", new EventsCommand());
        commandLine.addSubcommand("usage", new UsageCommand());
        commandLine.addSubcommand("prices", new PricesCommand());
        commandLine.addSubcommand("documents", new DocumentsCommand());
        return commandLine;
    }

    public static void main(String[] args) {
        System.exit(Cli.execute(commandLine(), args));
    }
}
