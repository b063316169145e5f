package io.hpcscale.simulator.soak;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * hpcscale's log during the soak, errors only: the faults make every cycle warn, so a soak of minutes would log
 * gigabytes, while an error (a cycle that failed unexpectedly, a second scaler acting without the lease) is what the
 * soak looks for. {@link #close} gives the log its level back.
 */
final class ErrorLog implements AutoCloseable {
    private final Logger hpcscale = (Logger) LoggerFactory.getLogger("io.hpcscale");
    private final Level levelBefore = hpcscale.getLevel();
    private final ListAppender<ILoggingEvent> errors = new ListAppender<>();
    private int taken;

    ErrorLog() {
        errors.start();
        hpcscale.addAppender(errors);
        hpcscale.setLevel(Level.ERROR);
    }

    /** The errors logged since the last call, each as one line. */
    List<String> take() {
        List<ILoggingEvent> all = List.copyOf(errors.list);
        List<String> lines = all.subList(taken, all.size()).stream()
                .map(e -> "error logged by " + e.getLoggerName() + ": " + e.getFormattedMessage()
                        + (e.getThrowableProxy() == null ? "" : " (" + e.getThrowableProxy().getClassName() + ": "
                                + e.getThrowableProxy().getMessage() + ")"))
                .toList();
        taken = all.size();
        return lines;
    }

    @Override
    public void close() {
        hpcscale.detachAppender(errors);
        hpcscale.setLevel(levelBefore);
    }
}
