package io.hpcscale.common.config;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/** The settings of one pool: {@code property} means the key {@code pool.<name>.property}. */
public final class PoolSettings {
    private final Settings settings;
    private final String name;

    PoolSettings(Settings settings, String name) {
        this.settings = settings;
        this.name = name;
    }

    public String name() {
        return name;
    }

    public String key(String property) {
        return ConfigKey.POOL_PREFIX + name + "." + property;
    }

    public String string(String property) {
        return settings.string(key(property));
    }

    public Optional<String> optionalString(String property) {
        return settings.optionalString(key(property));
    }

    public Duration duration(String property) {
        return settings.duration(key(property));
    }

    public long integer(String property) {
        return settings.integer(key(property));
    }

    public int intValue(String property) {
        return settings.intValue(key(property));
    }

    public Optional<Long> optionalInteger(String property) {
        return settings.optionalInteger(key(property));
    }

    public boolean bool(String property) {
        return settings.bool(key(property));
    }

    public Optional<Pattern> optionalRegex(String property) {
        return settings.optionalRegex(key(property));
    }

    public boolean isSet(String property) {
        return settings.isSet(key(property));
    }
}
