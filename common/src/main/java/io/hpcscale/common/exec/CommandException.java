package io.hpcscale.common.exec;

/** A command could not be run, failed, timed out or printed too much; the message says which and what to check. */
public abstract class CommandException extends Exception {
    private final CommandLine command;

    protected CommandException(CommandLine command, String message, Throwable cause) {
        super(message, cause);
        this.command = command;
    }

    public CommandLine command() {
        return command;
    }
}
