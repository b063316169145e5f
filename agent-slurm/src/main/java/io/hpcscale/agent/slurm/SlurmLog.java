package io.hpcscale.agent.slurm;

import com.fasterxml.jackson.core.JacksonException;
import io.hpcscale.common.logging.OncePerKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One warning per job or node that cannot be read, repeated only if it goes away and comes back. */
final class SlurmLog {
    private static final Logger log = LoggerFactory.getLogger(SlurmLog.class);
    private final OncePerKey reported = new OncePerKey();

    void skipped(String what, String name, Exception e) {
        String reason = e instanceof JacksonException json ? json.getOriginalMessage() : e.getMessage();
        if (reported.first(what + ":" + name)) {
            log.warn("skipping {} {}: it cannot be read ({}); every other {} is kept, and its document stays as it "
                    + "was", what, name, reason, what);
        } else {
            log.debug("still skipping {} {}: {}", what, name, reason);
        }
    }

    /** Called after each read, so a skipped entry that comes back after going away is reported again. */
    void endRead() {
        reported.endRound();
    }
}
