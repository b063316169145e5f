package io.hpcscale.common.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the keys one module contributes, from its {@code META-INF/hpcscale/config-keys.json}: a JSON object whose
 * {@code keys} array holds one object per key, with {@code key}, {@code kind} and {@code description}, and as needed
 * {@code default}, {@code defaultMeaning}, {@code choices}, {@code minimum} (written like a value of the key's kind)
 * and {@code requiredBy} (program names). A module's file is data rather than code so that the packages can install
 * every module's file on every host, and each program can still refuse a typo in a key meant for another.
 */
public final class ConfigKeyFile {
    public static final String RESOURCE = "META-INF/hpcscale/config-keys.json";
    private static final Set<String> FIELDS = Set.of("key", "kind", "default", "defaultMeaning", "choices", "minimum",
            "requiredBy", "description");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConfigKeyFile() {
    }

    /** The keys in {@code text}; {@code source} names the file in errors. */
    public static List<ConfigKey> parse(String text, String source) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw problem(source, "is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.path("keys").isArray()) {
            throw problem(source, "has no \"keys\" array");
        }
        List<ConfigKey> keys = new ArrayList<>();
        for (JsonNode entry : root.get("keys")) {
            keys.add(key(entry, source + ", key " + (keys.size() + 1)));
        }
        return keys;
    }

    private static ConfigKey key(JsonNode entry, String where) {
        if (!entry.isObject()) {
            throw problem(where, "is not an object");
        }
        for (Iterator<String> names = entry.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw problem(where, "has an unknown field \"" + name + "\"; the fields are " + FIELDS);
            }
        }
        String pattern = required(entry, "key", where);
        where = where + " (" + pattern + ")";
        ValueKind kind = kind(required(entry, "kind", where), where);
        List<String> choices = strings(entry, "choices", where);
        if ((kind == ValueKind.CHOICE) == choices.isEmpty()) {
            throw problem(where, "a choice needs \"choices\", and only a choice has them");
        }
        return new ConfigKey(pattern, kind, optional(entry, "default", where), optional(entry, "defaultMeaning", where),
                choices, minimum(kind, optional(entry, "minimum", where), where),
                required(entry, "description", where), new LinkedHashSet<>(strings(entry, "requiredBy", where)));
    }

    private static ValueKind kind(String text, String where) {
        try {
            return ValueKind.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw problem(where, "has the kind \"" + text + "\"; the kinds are "
                    + List.of(ValueKind.values()).toString().toLowerCase(Locale.ROOT));
        }
    }

    private static Long minimum(ValueKind kind, String text, String where) {
        if (text == null) {
            return null;
        }
        try {
            return switch (kind) {
                case DURATION -> Durations.parse(text).toMillis();
                case SIZE -> Sizes.parse(text);
                case INTEGER -> Long.parseLong(text);
                default -> throw problem(where, "has a minimum, which only a duration, size or integer may have");
            };
        } catch (IllegalArgumentException e) {
            throw problem(where, "has the minimum \"" + text + "\", which is not " + kind.expected());
        }
    }

    private static String required(JsonNode entry, String field, String where) {
        String value = optional(entry, field, where);
        if (value == null || value.isBlank()) {
            throw problem(where, "lacks \"" + field + "\"");
        }
        return value;
    }

    private static String optional(JsonNode entry, String field, String where) {
        JsonNode value = entry.get(field);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            throw problem(where, "has a \"" + field + "\" that is not a string");
        }
        return value.asText();
    }

    private static List<String> strings(JsonNode entry, String field, String where) {
        JsonNode value = entry.get(field);
        if (value == null) {
            return List.of();
        }
        List<String> result = new ArrayList<>();
        if (value.isArray()) {
            value.forEach(item -> result.add(item.isTextual() ? item.asText() : null));
        }
        if (!value.isArray() || result.contains(null)) {
            throw problem(where, "has a \"" + field + "\" that is not an array of strings");
        }
        return result;
    }

    private static ConfigException problem(String where, String what) {
        return new ConfigException("the configuration key file " + where + " " + what + ": reinstall the package that "
                + "brought it, or correct the module's " + RESOURCE);
    }
}
