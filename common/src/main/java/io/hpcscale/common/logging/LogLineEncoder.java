package io.hpcscale.common.logging;

import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;

/**
 * The console's encoder in logback.xml: the configured pattern until the configuration asks for JSON. The format is
 * switched in place, rather than by replacing the appender, so that no line is lost or written twice by a thread
 * logging meanwhile.
 */
public final class LogLineEncoder extends PatternLayoutEncoder {
    private final JsonLogLine json = new JsonLogLine();
    private volatile LogFormat format = LogFormat.TEXT;

    public void setFormat(LogFormat format) {
        this.format = format;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        return format == LogFormat.JSON ? json.encode(event) : super.encode(event);
    }
}
