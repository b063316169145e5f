package io.hpcscale.common.config;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The validated configuration. Every value has already been checked against its key's form, so the typed getters
 * never fail on a value; asking for a key that is not in the catalog is a programming error.
 */
public final class Settings {
    private final ConfigCatalog catalog;
    private final Map<String, String> values;
    private final SortedSet<String> poolNames;

    Settings(ConfigCatalog catalog, Map<String, String> values) {
        this.catalog = catalog;
        this.values = Collections.unmodifiableMap(new TreeMap<>(values));
        TreeSet<String> pools = new TreeSet<>();
        values.keySet().stream().map(ConfigKey::poolNameOf).filter(java.util.Objects::nonNull).forEach(pools::add);
        this.poolNames = Collections.unmodifiableSortedSet(pools);
    }

    /** Pools are the names that appear in any {@code pool.<name>.*} key, in name order. */
    public SortedSet<String> poolNames() {
        return poolNames;
    }

    public PoolSettings pool(String name) {
        if (!poolNames.contains(name)) {
            throw new IllegalArgumentException("no pool named " + name);
        }
        return new PoolSettings(this, name);
    }

    public boolean isSet(String key) {
        return values.containsKey(key);
    }

    /** The value, else the key's default; empty if neither exists. */
    public Optional<String> optionalString(String key) {
        String value = values.get(key);
        if (value != null) {
            return Optional.of(value);
        }
        ConfigKey spec = catalog.require(key);
        return Optional.ofNullable(spec.defaultFor(ConfigKey.poolNameOf(key)));
    }

    public String string(String key) {
        return optionalString(key).orElseThrow(
                () -> new IllegalStateException(key + " has no value and no default"));
    }

    public Duration duration(String key) {
        return Durations.parse(string(key));
    }

    public Optional<Duration> optionalDuration(String key) {
        return optionalString(key).map(Durations::parse);
    }

    public long integer(String key) {
        return Long.parseLong(string(key).trim());
    }

    public int intValue(String key) {
        return Math.toIntExact(integer(key));
    }

    public Optional<Long> optionalInteger(String key) {
        return optionalString(key).map(v -> Long.parseLong(v.trim()));
    }

    public Optional<Double> optionalDecimal(String key) {
        return optionalString(key).map(v -> Double.parseDouble(v.trim()));
    }

    public boolean bool(String key) {
        return Boolean.parseBoolean(string(key).trim());
    }

    public long size(String key) {
        return Sizes.parse(string(key));
    }

    public Optional<Pattern> optionalRegex(String key) {
        return optionalString(key).map(Pattern::compile);
    }

    /** The explicitly set values, for diagnostics. */
    public Map<String, String> values() {
        return values;
    }
}
