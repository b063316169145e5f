package io.hpcscale.simulator.cli;

import io.hpcscale.common.cli.Cli;
import io.hpcscale.scaler.cli.ScalerMain;
import picocli.CommandLine;

/**
 * {@code hpcscale-scaler} as installed: the production scaler's commands, and the simulator's {@code demo} and
 * {@code simulate}, which the scaler's own wiring never loads.
 */
public final class ScalerProgram {
    private ScalerProgram() {
    }

    public static CommandLine commandLine() {
        CommandLine commandLine = ScalerMain.commandLine();
        commandLine.addSubcommand("demo", new DemoCommand());
        commandLine.addSubcommand("simulate", new SimulateCommand());
        return commandLine;
    }

    public static void main(String[] args) {
        System.exit(Cli.execute(commandLine(), args));
    }
}
