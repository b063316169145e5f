package io.hpcscale.common.agent;

/** The scheduler could not be read as a whole; the message says which command and what went wrong. */
public class SchedulerReadException extends Exception {
    public SchedulerReadException(String message, Throwable cause) {
        super(message, cause);
    }

    public SchedulerReadException(String message) {
        super(message);
    }
}
