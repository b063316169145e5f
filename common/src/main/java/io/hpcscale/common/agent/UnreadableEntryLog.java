package io.hpcscale.common.agent;

import com.fasterxml.jackson.core.JacksonException;
import io.hpcscale.common.logging.OncePerKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the jobs and nodes of a scheduler's output that an adapter skips because they cannot be read: one warning
 * each, repeated only if the entry goes away and comes back, so a malformed job does not fill the log every cycle.
 */
public final class UnreadableEntryLog {
    private static final Logger log = LoggerFactory.getLogger(UnreadableEntryLog.class);
    private final OncePerKey reported = new OncePerKey();

    public void skipped(String what, String name, Exception e) {
        skipped(what, name, e instanceof JacksonException json ? json.getOriginalMessage()
                : e.getMessage() != null ? e.getMessage() : e.toString());
    }

    /** @param reason why it cannot be read, as the end of "it cannot be read (...)" */
    public void skipped(String what, String name, String reason) {
        if (reported.first(what + ":" + name)) {
            log.warn("skipping {} {}: it cannot be read ({}); every other {} is kept, and its document stays as it "
                    + "was", what, name, reason, what);
        } else {
            log.debug("still skipping {} {}: {}", what, name, reason);
        }
    }

    /** Called after each whole read, so that an entry skipped again after going away is reported again. */
    public void endRead() {
        reported.endRound();
    }
}
