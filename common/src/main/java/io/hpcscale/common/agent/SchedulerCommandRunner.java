package io.hpcscale.common.agent;

import io.hpcscale.common.exec.CommandException;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.common.exec.OutputReader;
import io.hpcscale.common.exec.StreamedResult;

/**
 * Runs an adapter's scheduler commands and turns their failures into the agent framework's errors, so that every
 * scheduler fails the same way: a failed read changes nothing, a failed change is that node's problem only.
 */
public final class SchedulerCommandRunner {
    private final CommandRunner runner;

    public SchedulerCommandRunner(CommandRunner runner) {
        this.runner = runner;
    }

    /**
     * Runs a command whose output the adapter reads as it is printed, one entry at a time, so that a large cluster's
     * output is never held whole. Its failure fails the whole read; the cause is the {@link CommandException}, for
     * adapters that tell failures apart. The reader says itself when the output cannot be trusted.
     */
    public <T> StreamedResult<T> read(CommandLine command, OutputReader<T, SchedulerReadException> reader)
            throws SchedulerReadException, InterruptedException {
        try {
            return runner.run(command, reader);
        } catch (CommandException e) {
            throw new SchedulerReadException(e.getMessage() + "; nothing was changed", e);
        }
    }

    /** Runs a command that changes a node in the scheduler (takes it offline, brings it back). */
    public void change(CommandLine command) throws SchedulerCommandException, InterruptedException {
        try {
            runner.run(command);
        } catch (CommandException e) {
            throw new SchedulerCommandException(e.getMessage(), e);
        }
    }
}
