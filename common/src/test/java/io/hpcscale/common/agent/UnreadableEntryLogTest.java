package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.common.logging.CapturedLog;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnreadableEntryLogTest {
    private final UnreadableEntryLog skipped = new UnreadableEntryLog();

    @Test
    void warnsOncePerEntryWhileItStaysUnreadableAndAgainIfItComesBack() {
        IllegalArgumentException e = new IllegalArgumentException("ncpus is 'lots'");
        String warning = "skipping job 12.s: it cannot be read (ncpus is 'lots'); every other job is kept, and its "
                + "document stays as it was";
        try (CapturedLog log = new CapturedLog(UnreadableEntryLog.class)) {
            skipped.skipped("job", "12.s", e);
            skipped.endRead();
            skipped.skipped("job", "12.s", e);
            skipped.skipped("node", "12.s", e);
            skipped.endRead();
            assertEquals(List.of(warning, warning.replace("job", "node")), log.at(Level.WARN));

            skipped.endRead();
            skipped.skipped("job", "12.s", e);
            assertEquals(3, log.at(Level.WARN).size(), "it went away for a read, so it is news again");
            assertEquals(warning, log.at(Level.WARN).get(2));
        }
    }

    @Test
    void quotesAMalformedJsonEntryWithoutTheParsersSourceDump() {
        JacksonException e = assertThrows(JacksonException.class,
                () -> new ObjectMapper().readTree("{\"ncpus\": lots}"));
        try (CapturedLog log = new CapturedLog(UnreadableEntryLog.class)) {
            skipped.skipped("node", "cn042", e);
            assertEquals(List.of("skipping node cn042: it cannot be read (" + e.getOriginalMessage() + "); every "
                    + "other node is kept, and its document stays as it was"), log.at(Level.WARN));
        }
    }
}
