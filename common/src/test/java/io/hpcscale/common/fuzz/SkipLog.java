package io.hpcscale.common.fuzz;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.hpcscale.common.agent.UnreadableEntryLog;
import io.hpcscale.common.logging.CapturedLog;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The "skipping ..." warnings of {@link UnreadableEntryLog}, collected but not printed: a fuzz run skips entries
 * hundreds of thousands of times, and each input's lines are counted against the entries it skipped.
 */
public final class SkipLog implements AutoCloseable {
    private final Logger logger = (Logger) LoggerFactory.getLogger(UnreadableEntryLog.class);
    private final CapturedLog captured = new CapturedLog(UnreadableEntryLog.class);

    public SkipLog() {
        logger.setAdditive(false);
    }

    /** The warnings logged since the last call. */
    public List<String> take() {
        List<String> lines = captured.at(Level.WARN);
        captured.clear();
        return lines;
    }

    /** How many warnings were logged since the last {@link #take()}, for parsers that only log what they skip. */
    public int peekCount() {
        return captured.at(Level.WARN).size();
    }

    @Override
    public void close() {
        logger.setAdditive(true);
        captured.close();
    }
}
