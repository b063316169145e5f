package io.hpcscale.common.config;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every key of the one properties file, as the modules contribute them ({@link ConfigKeyFile}). Each program
 * validates the whole file against its catalog, so a typo is reported by whichever service starts first, the same
 * way on every host: besides the keys of the modules on its class path, a program reads the key files the packages
 * install for every other program, named by the system property {@value #KEY_FILES_PROPERTY}.
 */
public final class ConfigCatalog {
    /** Key files or directories of them, separated by the platform's path separator; set by the launcher. */
    public static final String KEY_FILES_PROPERTY = "hpcscale.configKeys";

    private final List<ConfigKey> keys;

    private ConfigCatalog(List<ConfigKey> keys) {
        this.keys = Collections.unmodifiableList(keys);
    }

    /** The keys of the modules on the class path and of the key files named by {@value #KEY_FILES_PROPERTY}. */
    public static ConfigCatalog installed() {
        List<ConfigKey> keys = new ArrayList<>(onClassPath());
        String files = System.getProperty(KEY_FILES_PROPERTY, "");
        for (String name : files.split(File.pathSeparator)) {
            if (!name.isBlank()) {
                keys.addAll(fromFiles(Path.of(name.strip())));
            }
        }
        return of(keys);
    }

    /** The keys of the given key files, or of every {@code .json} file in a given directory. */
    public static ConfigCatalog ofFiles(List<Path> files) {
        return of(files.stream().flatMap(file -> fromFiles(file).stream()).toList());
    }

    /**
     * A catalog of these keys. A key given twice keeps its first definition: a program's own module, on its class
     * path, comes before the installed copy of the same file.
     */
    public static ConfigCatalog of(List<ConfigKey> keys) {
        Map<String, ConfigKey> byPattern = new LinkedHashMap<>();
        keys.forEach(key -> byPattern.putIfAbsent(key.pattern(), key));
        return new ConfigCatalog(new ArrayList<>(byPattern.values()));
    }

    private static List<ConfigKey> onClassPath() {
        List<ConfigKey> keys = new ArrayList<>();
        try {
            Enumeration<URL> resources = ConfigCatalog.class.getClassLoader().getResources(ConfigKeyFile.RESOURCE);
            while (resources.hasMoreElements()) {
                URL resource = resources.nextElement();
                try (InputStream in = resource.openStream()) {
                    keys.addAll(ConfigKeyFile.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                            resource.toString()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the configuration key files on the class path cannot be read", e);
        }
        return keys;
    }

    private static List<ConfigKey> fromFiles(Path path) {
        try {
            if (!Files.isDirectory(path)) {
                return ConfigKeyFile.parse(Files.readString(path), path.toString());
            }
            List<ConfigKey> keys = new ArrayList<>();
            try (Stream<Path> files = Files.list(path)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                    keys.addAll(ConfigKeyFile.parse(Files.readString(file), file.toString()));
                }
            }
            return keys;
        } catch (IOException e) {
            throw new ConfigException("the configuration key files in " + path + " (" + KEY_FILES_PROPERTY
                    + ") cannot be read: " + e.getMessage() + "; reinstall hpcscale-common, or correct the path");
        }
    }

    public List<ConfigKey> keys() {
        return keys;
    }

    public Optional<ConfigKey> find(String key) {
        return keys.stream().filter(k -> k.matches(key)).findFirst();
    }

    public ConfigKey require(String key) {
        return find(key).orElseThrow(() -> new IllegalArgumentException("no such setting in the catalog: " + key));
    }

    public List<ConfigKey> poolKeys() {
        return keys.stream().filter(ConfigKey::isPoolKey).toList();
    }
}
