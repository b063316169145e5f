package io.hpcscale.common.exec;

import java.io.IOException;

/** The command ran, but reading its output failed on this side. */
public final class CommandOutputException extends CommandException {
    public CommandOutputException(CommandLine command, IOException cause) {
        super(command, "reading the output of `" + command.display() + "` failed: " + cause.getMessage(), cause);
    }
}
