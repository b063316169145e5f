package io.hpcscale.common.exec;

/** The command printed more than the configured cap. */
public final class CommandOutputTooLargeException extends CommandException {
    public CommandOutputTooLargeException(CommandLine command) {
        super(command, "`" + command.display() + "` printed more than " + command.limits().maxOutputBytes()
                + " bytes" + (command.limits().maxOutputSetting() == null ? ": nothing longer is read"
                        : "; raise " + command.limits().maxOutputSetting() + " if the cluster is really this large"),
                null);
    }
}
