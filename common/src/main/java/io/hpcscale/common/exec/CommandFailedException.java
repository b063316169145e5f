package io.hpcscale.common.exec;

import io.hpcscale.common.secrets.Redactor;

/** The command exited with a status other than 0. */
public final class CommandFailedException extends CommandException {
    private final int exitCode;
    private final String stderr;

    public CommandFailedException(CommandLine command, int exitCode, String stderr) {
        super(command, "`" + command.display() + "` exited with status " + exitCode
                + (stderr.isBlank() ? " and printed nothing on stderr" : ": " + Redactor.text(stderr.strip())), null);
        this.exitCode = exitCode;
        this.stderr = stderr;
    }

    public int exitCode() {
        return exitCode;
    }

    public String stderr() {
        return stderr;
    }
}
