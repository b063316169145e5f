package io.hpcscale.common.exec;

/** The command ran longer than its timeout and was killed. */
public final class CommandTimeoutException extends CommandException {
    public CommandTimeoutException(CommandLine command) {
        super(command, "`" + command.display() + "` did not finish within "
                + command.limits().timeout().toMillis() / 1000.0 + "s and was killed; is the service behind it "
                + "responding? (raise " + command.limits().timeoutSetting() + " if it is only slow)", null);
    }
}
