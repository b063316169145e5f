package io.hpcscale.common.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.slf4j.event.KeyValuePair;

/**
 * One logging event as one line of JSON: time (UTC), level, logger, thread and message, then the event's key-value
 * pairs as fields of their own, then an exception as {@code error} and {@code stack_trace}. Jackson escapes the line
 * breaks of messages and stack traces, so an event never spans two lines.
 *
 * <p>Logback's own JsonEncoder writes the time as epoch milliseconds, nests key-value pairs in a list and splits
 * stack traces into objects; shippers would need a mapping for each. These names are the ones they expect.
 */
final class JsonLogLine {
    private static final JsonFactory FACTORY = new JsonFactory();
    // Always with milliseconds, so that the field has one shape and sorts as text.
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSX")
            .withZone(ZoneOffset.UTC);

    byte[] encode(ILoggingEvent event) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (JsonGenerator json = FACTORY.createGenerator(bytes)) {
            json.writeStartObject();
            json.writeStringField("time", TIME.format(Instant.ofEpochMilli(event.getTimeStamp())));
            json.writeStringField("level", event.getLevel().toString());
            json.writeStringField("logger", event.getLoggerName());
            json.writeStringField("thread", event.getThreadName());
            json.writeStringField("message", event.getFormattedMessage());
            writeKeyValuePairs(json, event.getKeyValuePairs());
            writeThrowable(json, event.getThrowableProxy());
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("a log line could not be written as JSON", e);
        }
        bytes.write('\n');
        return bytes.toByteArray();
    }

    private static void writeKeyValuePairs(JsonGenerator json, List<KeyValuePair> pairs) throws IOException {
        if (pairs == null) {
            return;
        }
        for (KeyValuePair pair : pairs) {
            if (pair.value == null) {
                continue;
            }
            json.writeFieldName(pair.key);
            if (pair.value instanceof Number || pair.value instanceof Boolean) {
                json.writeObject(pair.value);
            } else {
                json.writeString(pair.value.toString());
            }
        }
    }

    private static void writeThrowable(JsonGenerator json, IThrowableProxy throwable) throws IOException {
        if (throwable == null) {
            return;
        }
        String message = throwable.getMessage();
        json.writeStringField("error", throwable.getClassName() + (message == null ? "" : ": " + message));
        json.writeStringField("stack_trace", ThrowableProxyUtil.asString(throwable).stripTrailing());
    }
}
