package io.hpcscale.common.agent;

/** A command that changes a node's state in the scheduler failed. */
public class SchedulerCommandException extends Exception {
    public SchedulerCommandException(String message, Throwable cause) {
        super(message, cause);
    }
}
