package io.hpcscale.common.logging;

import io.hpcscale.common.config.Settings;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** How log lines are written: text for people reading the journal, json for log shippers. */
public enum LogFormat {
    TEXT,
    JSON;

    public static final String SETTING = "log.format";

    /** As written in the setting and on the command line. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<LogFormat> fromWireName(String name) {
        return Arrays.stream(values()).filter(f -> f.wireName().equals(name)).findFirst();
    }

    /** The format {@code log.format} names; the catalog has already refused any other value. */
    public static LogFormat of(Settings settings) {
        String name = settings.string(SETTING);
        return fromWireName(name).orElseThrow(
                () -> new IllegalStateException(SETTING + " " + name + " passed validation but is no format"));
    }
}
