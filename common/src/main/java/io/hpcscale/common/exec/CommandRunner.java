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

    /**
     * Runs the command to its end while {@code reader} reads what it prints, as it prints it: output of any size is
     * read in constant memory. The command's limits apply as to {@link #run(CommandLine)}, and its failures win over
     * the reader's, which a cut-short output would explain.
     *
     * @throws E                      the command succeeded but the reader could not make sense of its output
     * @throws CommandOutputException reading the output failed
     * @throws CommandException       as for {@link #run(CommandLine)}
     */
    <T, E extends Exception> StreamedResult<T> run(CommandLine command, OutputReader<T, E> reader)
            throws CommandException, E, InterruptedException;
}
