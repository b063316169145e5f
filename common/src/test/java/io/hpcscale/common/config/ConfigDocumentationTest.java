package io.hpcscale.common.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The example file and the configuration reference stay in step with the catalog of keys. */
class ConfigDocumentationTest {
    private static final Path ROOT = Path.of("..");
    private final ConfigCatalog catalog = EveryModule.catalog();

    @Test
    void theExampleFileListsEveryKeyAndIsValid() throws Exception {
        Path example = ROOT.resolve("config.example.properties");
        List<String> lines = Files.readAllLines(example);
        for (ConfigKey key : catalog.keys()) {
            String name = key.isPoolKey() ? key.forPool("hb120") : key.pattern();
            assertTrue(lines.stream().map(l -> l.replaceFirst("^#", "").split(" = ")[0])
                    .anyMatch(listed -> key.matches(listed) && (!key.isPoolKey() || listed.startsWith("pool.hb120."))),
                    "config.example.properties does not list " + name + " (a key ending in a <named> part with any "
                            + "name there)");
        }
        Set<String> programs = new TreeSet<>(Set.of(EveryModule.TEST_PROGRAM.name()));
        catalog.keys().forEach(key -> programs.addAll(key.requiredBy()));
        for (String program : programs) {
            new ConfigLoader(catalog).load(example, Map.of(), new Program(program, ""));
        }
    }

    @Test
    void theConfigurationReferenceDescribesEveryKey() throws Exception {
        String reference = Files.readString(ROOT.resolve("docs/configuration.md"));
        for (ConfigKey key : catalog.keys()) {
            assertTrue(reference.contains("`" + key.pattern() + "`"), "docs/configuration.md lacks " + key.pattern());
        }
    }
}
