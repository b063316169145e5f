package io.hpcscale.cloud.azure.removal;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.io.PrintWriter;
import java.time.Clock;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The node-side program {@code hpcscale-delete-me}. Whatever goes wrong ends with one line on stderr and status 1:
 * the caller is usually a script at the end of a render job, which can only log the line and move on.
 */
public final class DeleteMeMain {
    private DeleteMeMain() {
    }

    public static CommandLine commandLine(DeleteMeCommand command) {
        CommandLine commandLine = new CommandLine(command);
        commandLine.setParameterExceptionHandler((e, args) -> {
            PrintWriter err = e.getCommandLine().getErr();
            err.println(e.getCommandLine().getCommandName() + ": " + e.getMessage() + " (see --help)");
            err.flush();
            return 1;
        });
        commandLine.setExecutionExceptionHandler((e, cl, parsed) -> {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            PrintWriter err = cl.getErr();
            err.println(cl.getCommandName() + ": unexpected failure, please report it: " + e);
            err.flush();
            return 1;
        });
        return commandLine;
    }

    public static void main(String[] args) {
        // The storage SDK logs each failed try, with stack traces; the one line this program prints says it all.
        ((Logger) LoggerFactory.getLogger("com.azure")).setLevel(Level.OFF);
        System.exit(commandLine(new DeleteMeCommand(Clock.systemUTC(), System.getenv())).execute(args));
    }
}
