package io.hpcscale.common.cli;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.store.StoreException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Runs a program's command line. Conditions an administrator can fix end with a message and no stack trace:
 * configuration problems exit with status 2, a store that cannot be used with status 1.
 */
public final class Cli {
    public static final int CONFIG_ERROR = 2;
    public static final int FAILURE = 1;

    private Cli() {
    }

    public static CommandLine commandLine(RootCommand root) {
        CommandLine commandLine = new CommandLine(root);
        commandLine.setCommandName(root.program().name());
        commandLine.getCommandSpec().usageMessage().description(root.program().description());
        commandLine.setExecutionExceptionHandler((e, cl, parsed) -> report(e, cl));
        return commandLine;
    }

    public static int execute(CommandLine commandLine, String... args) {
        return commandLine.execute(args);
    }

    private static int report(Exception e, CommandLine commandLine) {
        PrintWriter err = commandLine.getErr();
        String program = commandLine.getCommandSpec().root().name();
        if (e instanceof ConfigException config) {
            err.println(program + ": the configuration cannot be used:");
            config.problems().forEach(p -> err.println("  - " + p));
            err.flush();
            return CONFIG_ERROR;
        }
        if (e instanceof StoreException store) {
            err.println(program + ": the store cannot be used: " + store.getMessage());
            err.flush();
            return FAILURE;
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            return FAILURE;
        }
        err.println(program + ": unexpected failure, please report it with this trace:");
        e.printStackTrace(err);
        err.flush();
        return FAILURE;
    }
}
