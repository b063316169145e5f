package io.hpcscale.common.exec;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Map;

/**
 * Runs commands with zt-exec ({@link RunningCommand}). Commands get their input (most none) and the C locale (stable
 * output to parse), and run in a process group of their own ({@link ProcessGroups}): a signal to hpcscale does not
 * reach them, so the call in flight finishes when hpcscale is asked to stop.
 */
public final class ZtExecCommandRunner implements CommandRunner {
    private final Map<String, String> environment;

    public ZtExecCommandRunner() {
        this(Map.of("LC_ALL", "C"));
    }

    public ZtExecCommandRunner(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public CommandResult run(CommandLine command) throws CommandException, InterruptedException {
        StreamedResult<byte[]> result = run(command, InputStream::readAllBytes);
        return new CommandResult(command, result.value(), result.stderr(), result.elapsed());
    }

    @Override
    public <T, E extends Exception> StreamedResult<T> run(CommandLine command, OutputReader<T, E> reader)
            throws CommandException, E, InterruptedException {
        RunningCommand running = RunningCommand.start(command, environment);
        T value = null;
        Exception readFailure = null;
        try {
            value = reader.read(running.stdout());
        } catch (Exception e) {
            // Reported only once the command's own outcome is known: a failed command explains a cut-short output.
            readFailure = e;
        } finally {
            running.stopReading();
        }
        if (readFailure instanceof InterruptedIOException) {
            Thread.currentThread().interrupt();
        }
        RunningCommand.Ended ended = running.await();
        if (ended.overflowed()) {
            throw new CommandOutputTooLargeException(command);
        }
        if (ended.exitCode() != 0) {
            throw new CommandFailedException(command, ended.exitCode(), ended.stderr());
        }
        if (readFailure != null) {
            throw ZtExecCommandRunner.<E>readersOwn(command, readFailure);
        }
        return new StreamedResult<>(command, value, ended.stderr(), ended.elapsed());
    }

    /**
     * The reader's failure, as it may be thrown: {@link OutputReader#read} throws only {@link IOException}, its own
     * {@code E} and unchecked exceptions, so any other checked exception is an {@code E}.
     */
    @SuppressWarnings("unchecked")
    private static <E extends Exception> E readersOwn(CommandLine command, Exception failure)
            throws CommandOutputException {
        if (failure instanceof IOException io) {
            throw new CommandOutputException(command, io);
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        return (E) failure;
    }
}
