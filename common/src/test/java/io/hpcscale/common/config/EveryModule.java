package io.hpcscale.common.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The keys of every module of this checkout, as the packages install them on every host. */
public final class EveryModule {
    /** A program for tests that requires no key. */
    public static final Program TEST_PROGRAM = new Program("hpcscale-test", "A program of the tests.");

    private EveryModule() {
    }

    /** Each module's key file; run from a module's directory, as Maven runs tests. */
    public static List<Path> keyFiles() {
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            return modules.map(module -> module.resolve("src/main/resources").resolve(ConfigKeyFile.RESOURCE))
                    .filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ConfigCatalog catalog() {
        return ConfigCatalog.ofFiles(keyFiles());
    }

    public static ConfigLoader loader() {
        return new ConfigLoader(catalog());
    }
}
