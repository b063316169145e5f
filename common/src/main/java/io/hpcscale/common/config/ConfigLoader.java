package io.hpcscale.common.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Reads the properties file, applies environment overrides and validates every key against the catalog. All
 * problems are collected and reported together.
 *
 * <p>An environment variable {@code HPCSCALE_<KEY>} overrides a key: the key upper-cased with dots and dashes turned
 * into underscores ({@code HPCSCALE_SCALER_DRYRUN} for {@code scaler.dryRun}, {@code HPCSCALE_POOL_GPU_MAX} for
 * {@code pool.gpu.max}).
 */
public final class ConfigLoader {
    public static final String ENV_PREFIX = "HPCSCALE_";
    public static final Path DEFAULT_PATH = Path.of("/etc/hpcscale/hpcscale.properties");

    private final ConfigCatalog catalog;

    public ConfigLoader(ConfigCatalog catalog) {
        this.catalog = catalog;
    }

    private record Value(String text, String origin) {
    }

    public Settings load(Path file, Map<String, String> environment, Program program) {
        Map<String, Value> values = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        readFile(file, problems).forEach((key, text) -> values.put(key, new Value(text, "in " + file)));
        applyEnvironment(environment, values, problems);
        return validate(values, program, problems);
    }

    /** Settings from a map, as if read from a file; for tests, the demo and the simulator. */
    public Settings fromMap(Map<String, String> map, Program program) {
        Map<String, Value> values = new LinkedHashMap<>();
        map.forEach((key, text) -> values.put(key, new Value(text, "")));
        return validate(values, program, new ArrayList<>());
    }

    public static String environmentName(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The file's keys and values; a key given more than once is one of the {@code problems}. */
    private static Map<String, String> readFile(Path file, List<String> problems) {
        Properties properties = new Properties();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            properties.load(new StringReader(String.join("\n", lines)));
        } catch (NoSuchFileException e) {
            throw new ConfigException("configuration file " + file + " does not exist: create it from "
                    + "config.example.properties, or name another file with --config");
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException("configuration file " + file + " cannot be read: " + e.getMessage());
        }
        RepeatedKeys.in(lines).forEach((key, numbers) -> problems.add(key + " is given " + numbers.size()
                + " times in " + file + ", on lines " + numbers.stream().map(String::valueOf)
                .collect(Collectors.joining(" and ")) + ": keep one of them"));
        Map<String, String> result = new LinkedHashMap<>();
        new TreeSet<>(properties.stringPropertyNames()).forEach(k -> result.put(k.trim(), properties.getProperty(k)));
        return result;
    }

    private void applyEnvironment(Map<String, String> environment, Map<String, Value> values, List<String> problems) {
        Map<String, String> candidates = new LinkedHashMap<>();
        for (ConfigKey key : catalog.keys()) {
            if (!key.isPoolKey()) {
                candidates.put(environmentName(key.pattern()), key.pattern());
            }
        }
        for (String key : values.keySet()) {
            candidates.put(environmentName(key), key);
        }
        for (String pool : poolNamesIn(values.keySet())) {
            for (ConfigKey key : catalog.poolKeys()) {
                candidates.put(environmentName(key.forPool(pool)), key.forPool(pool));
            }
        }
        for (Map.Entry<String, String> env : new java.util.TreeMap<>(environment).entrySet()) {
            String name = env.getKey();
            if (!name.startsWith(ENV_PREFIX)) {
                continue;
            }
            String key = Optional.ofNullable(candidates.get(name)).orElseGet(() -> poolKeyFromEnvironment(name));
            if (key == null) {
                problems.add("environment variable " + name + " overrides no setting: unset it, or spell it "
                        + "HPCSCALE_ followed by a key upper-cased with dots as underscores (e.g. "
                        + environmentName("agent.interval") + ")");
                continue;
            }
            values.put(key, new Value(env.getValue(), "from environment variable " + name));
        }
    }

    /** {@code HPCSCALE_POOL_<NAME>_<PROPERTY>} for a pool the file does not mention; the name is taken in lower case. */
    private String poolKeyFromEnvironment(String name) {
        String prefix = ENV_PREFIX + "POOL_";
        if (!name.startsWith(prefix)) {
            return null;
        }
        String rest = name.substring(prefix.length());
        for (ConfigKey key : catalog.poolKeys()) {
            String suffix = "_" + key.poolProperty().toUpperCase(Locale.ROOT).replace('.', '_');
            if (rest.endsWith(suffix) && rest.length() > suffix.length()) {
                String pool = rest.substring(0, rest.length() - suffix.length()).toLowerCase(Locale.ROOT);
                return key.forPool(pool);
            }
        }
        return null;
    }

    private Settings validate(Map<String, Value> values, Program program, List<String> problems) {
        Map<String, String> accepted = new LinkedHashMap<>();
        for (Map.Entry<String, Value> entry : values.entrySet()) {
            String key = entry.getKey();
            Value value = entry.getValue();
            String where = value.origin().isEmpty() ? "" : " (" + value.origin() + ")";
            Optional<ConfigKey> spec = catalog.find(key);
            if (spec.isEmpty()) {
                problems.add("unknown setting " + key + where + suggestion(key));
                continue;
            }
            String pool = ConfigKey.poolNameOf(key);
            if (pool != null && !ConfigKey.POOL_NAME.matcher(pool).matches()) {
                problems.add(key + where + ": pool name '" + pool + "' may hold only letters, digits, '_' and '-',"
                        + " and must start with a letter or digit");
                continue;
            }
            String text = value.text() == null ? "" : value.text().trim();
            if (text.isEmpty()) {
                problems.add(key + where + " has no value: give " + spec.get().expected()
                        + ", or remove the line to use the default" + defaultText(spec.get(), pool));
                continue;
            }
            String problem = check(spec.get(), text);
            if (problem != null) {
                problems.add(key + "=" + text + where + ": " + problem);
                continue;
            }
            accepted.put(key, text);
        }
        Settings settings = new Settings(catalog, accepted);
        for (ConfigKey spec : catalog.keys()) {
            if (!spec.requiredBy().contains(program.name())) {
                continue;
            }
            if (spec.isPoolKey()) {
                for (String pool : settings.poolNames()) {
                    if (!values.containsKey(spec.forPool(pool))) {
                        problems.add(spec.forPool(pool) + " is required by " + program.name() + ": "
                                + spec.description() + " Expected " + spec.expected() + ".");
                    }
                }
            } else if (!values.containsKey(spec.pattern())) {
                problems.add(spec.pattern() + " is required by " + program.name() + ": "
                        + spec.description() + " Expected " + spec.expected() + ".");
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
        return settings;
    }

    private static String check(ConfigKey spec, String text) {
        try {
            switch (spec.kind()) {
                case DURATION -> {
                    Duration duration = Durations.parse(text);
                    if (spec.minimum() != null && duration.toMillis() < spec.minimum()) {
                        return "expected a duration of at least " + Durations.format(Duration.ofMillis(spec.minimum()));
                    }
                }
                case INTEGER -> {
                    long number = Long.parseLong(text);
                    if (spec.minimum() != null && number < spec.minimum()) {
                        return "expected " + spec.expected();
                    }
                }
                case SIZE -> {
                    long size = Sizes.parse(text);
                    if (spec.minimum() != null && size < spec.minimum()) {
                        return "expected a size of at least " + spec.minimum() + " bytes";
                    }
                }
                case DECIMAL -> {
                    double number = Double.parseDouble(text);
                    if (!Double.isFinite(number) || number < 0) {
                        return "expected " + spec.expected();
                    }
                }
                case BOOLEAN -> {
                    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                        return "expected " + spec.expected();
                    }
                }
                case CHOICE -> {
                    if (!spec.choices().contains(text)) {
                        return "expected " + spec.expected();
                    }
                }
                case REGEX -> Pattern.compile(text);
                case STRING, PATH -> {
                    // Any non-empty text will do.
                }
            }
            return null;
        } catch (PatternSyntaxException e) {
            return "expected " + spec.expected() + ": " + e.getDescription();
        } catch (IllegalArgumentException | ArithmeticException e) {
            return "expected " + spec.expected();
        }
    }

    private static String defaultText(ConfigKey spec, String pool) {
        String value = spec.defaultFor(pool);
        if (value != null) {
            return " (" + value + ")";
        }
        return spec.defaultMeaning() == null ? "" : " (" + spec.defaultMeaning() + ")";
    }

    private String suggestion(String key) {
        String pool = ConfigKey.poolNameOf(key);
        List<String> candidates = new ArrayList<>();
        for (ConfigKey spec : catalog.keys()) {
            if (!spec.isPoolKey()) {
                candidates.add(spec.pattern());
            } else if (pool != null) {
                candidates.add(spec.forPool(pool));
            }
        }
        return Spelling.nearest(key, candidates, 3).map(best -> ": did you mean " + best + "?")
                .orElse(": remove it, or see config.example.properties for the settings there are");
    }

    private static TreeSet<String> poolNamesIn(Iterable<String> keys) {
        TreeSet<String> pools = new TreeSet<>();
        for (String key : keys) {
            String pool = ConfigKey.poolNameOf(key);
            if (pool != null) {
                pools.add(pool);
            }
        }
        return pools;
    }
}
