package io.hpcscale.common.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import java.util.Iterator;
import org.slf4j.LoggerFactory;

/**
 * Applies {@code log.format} to the packaged logging configuration. A logback configuration of the site's own
 * (-Dlogback.configurationFile) has no {@link LogLineEncoder} and keeps whatever format it chose.
 */
public final class LogOutput {
    private LogOutput() {
    }

    public static void use(LogFormat format) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Iterator<Appender<ILoggingEvent>> appenders = context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders();
        while (appenders.hasNext()) {
            if (appenders.next() instanceof OutputStreamAppender<ILoggingEvent> output
                    && output.getEncoder() instanceof LogLineEncoder encoder) {
                encoder.setFormat(format);
            }
        }
    }
}
