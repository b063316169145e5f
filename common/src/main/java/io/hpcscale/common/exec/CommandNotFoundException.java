package io.hpcscale.common.exec;

/** The program does not exist or may not be executed. */
public final class CommandNotFoundException extends CommandException {
    public CommandNotFoundException(CommandLine command, String detail, Throwable cause) {
        super(command, "cannot run " + command.program() + command.settingHint() + ": " + detail
                + "; install it, or set the full path to it", cause);
    }
}
