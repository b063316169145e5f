package io.hpcscale.common.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.hpcscale.common.config.Settings;
import org.slf4j.LoggerFactory;

/** Applies {@code log.level} to hpcscale's own loggers, keeping third-party libraries at warnings. */
public final class LogLevels {
    private LogLevels() {
    }

    public static void apply(Settings settings) {
        apply(settings.string("log.level"));
    }

    public static void apply(String level) {
        Logger hpcscale = (Logger) LoggerFactory.getLogger("io.hpcscale");
        hpcscale.setLevel(Level.toLevel(level, Level.INFO));
    }
}
