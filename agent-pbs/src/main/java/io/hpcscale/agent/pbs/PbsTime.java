package io.hpcscale.agent.pbs;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** PBS prints job times like ctime(3) in the server's local time: {@code Mon Nov 23 23:10:01 2020}. */
final class PbsTime {
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.US);

    private PbsTime() {
    }

    /** The instant, or null when the text is absent or not in that form (a time is never worth losing a job over). */
    static Instant parse(String text, ZoneId zone) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return LocalDateTime.parse(text.trim().replaceAll("\\s+", " "), CTIME).atZone(zone).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
