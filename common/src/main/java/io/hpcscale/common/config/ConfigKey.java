package io.hpcscale.common.config;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One setting of the properties file. Pool settings have the pattern {@code pool.<name>.<property>}; their default
 * may mention {@code <name>}, which stands for the pool's name. A key may end in a part the administrator names,
 * written in angle brackets ({@code pool.<name>.resource.<resource>}, {@code shared.<resource>.total}): any letters,
 * digits, {@code _} and {@code -} stand there.
 *
 * @param defaultValue    the value used when the key is absent, or null when there is none
 * @param defaultMeaning  how the default reads in documentation when it is computed (e.g. "this host's name")
 * @param minimum         the least value: milliseconds for a duration, bytes for a size; or null
 * @param requiredBy      names of the programs that refuse to start without it
 */
public record ConfigKey(
        String pattern,
        ValueKind kind,
        String defaultValue,
        String defaultMeaning,
        List<String> choices,
        Long minimum,
        String description,
        Set<String> requiredBy) {

    public static final String POOL_PREFIX = "pool.";
    private static final String NAME_PLACEHOLDER = "<name>";
    public static final Pattern POOL_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");
    private static final Pattern POOL_KEY = Pattern.compile("pool\\.([^.]+)\\.([A-Za-z0-9]+(?:\\.[A-Za-z0-9_-]+)?)");
    private static final Pattern NAMED_PART = Pattern.compile("<[a-z]+>");
    private static final Map<String, Pattern> NAMED_PATTERNS = new ConcurrentHashMap<>();

    public ConfigKey {
        choices = List.copyOf(choices);
        requiredBy = Set.copyOf(requiredBy);
    }

    public boolean isPoolKey() {
        return pattern.startsWith(POOL_PREFIX + NAME_PLACEHOLDER + ".");
    }

    /** For a pool key, the part after {@code pool.<name>.}. */
    public String poolProperty() {
        return pattern.substring((POOL_PREFIX + NAME_PLACEHOLDER + ".").length());
    }

    public boolean matches(String key) {
        if (!isPoolKey()) {
            return same(pattern, key);
        }
        Matcher m = POOL_KEY.matcher(key);
        return m.matches() && same(poolProperty(), m.group(2));
    }

    private static boolean same(String template, String text) {
        if (!NAMED_PART.matcher(template).find()) {
            return template.equals(text);
        }
        return NAMED_PATTERNS.computeIfAbsent(template, ConfigKey::namedPattern).matcher(text).matches();
    }

    private static Pattern namedPattern(String template) {
        StringBuilder regex = new StringBuilder();
        Matcher part = NAMED_PART.matcher(template);
        int from = 0;
        while (part.find()) {
            regex.append(Pattern.quote(template.substring(from, part.start()))).append("[A-Za-z0-9_-]+");
            from = part.end();
        }
        return Pattern.compile(regex.append(Pattern.quote(template.substring(from))).toString());
    }

    /** The key for one pool: {@code pool.gpu.max}. */
    public String forPool(String poolName) {
        return pattern.replace(NAME_PLACEHOLDER, poolName);
    }

    public String defaultFor(String poolName) {
        return defaultValue == null || poolName == null ? defaultValue : defaultValue.replace(NAME_PLACEHOLDER, poolName);
    }

    /** The pool a concrete pool key belongs to, or null. */
    public static String poolNameOf(String key) {
        Matcher m = POOL_KEY.matcher(key);
        return m.matches() ? m.group(1) : null;
    }

    public String expected() {
        String text = kind == ValueKind.CHOICE ? "one of " + String.join(", ", choices) : kind.expected();
        if (minimum != null && kind == ValueKind.INTEGER) {
            text += " of at least " + minimum;
        }
        return text;
    }
}
