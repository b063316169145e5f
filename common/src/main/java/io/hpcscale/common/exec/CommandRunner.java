package io.hpcscale.common.exec;

/** Runs external commands: the only way hpcscale talks to schedulers and on-premises power control. */
public interface CommandRunner {
    /**
     * Runs the command to its end and returns what it printed.
     *
     * @throws CommandNotFoundException       the program cannot be started
     * @throws CommandFailedException         it exited with a non-zero status (stderr is in the message)
     * @throws CommandTimeoutException        it ran past its timeout and was killed
     * @throws CommandOutputTooLargeException it printed more than allowed
     * @throws InterruptedException           this thread was interrupted while waiting
     */
    CommandResult run(CommandLine command) throws CommandException, InterruptedException;
}
