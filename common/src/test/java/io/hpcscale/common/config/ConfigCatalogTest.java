package io.hpcscale.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigCatalogTest {
    @TempDir
    Path dir;

    @Test
    void noTwoModulesDefineTheSameKey() {
        Map<String, Path> owner = new HashMap<>();
        for (Path file : EveryModule.keyFiles()) {
            for (ConfigKey key : ConfigCatalog.ofFiles(List.of(file)).keys()) {
                Path first = owner.putIfAbsent(key.pattern(), file);
                assertEquals(null, first, key.pattern() + " is defined in " + first + " and in " + file);
            }
        }
        assertTrue(owner.size() > 100, "every module's keys are read: " + owner.size());
    }

    @Test
    void commonAloneKnowsOnlyTheKeysEveryProgramShares() {
        ConfigCatalog onClassPath = ConfigCatalog.installed();
        assertTrue(onClassPath.find("store.type").isPresent());
        assertTrue(onClassPath.find("agent.pbs.qstat").isEmpty(), "common's tests have no scheduler module");
    }

    @Test
    void aKeyOfAProgramNotOnTheClassPathIsStillCheckedWhenItsFileIsInstalled() throws IOException {
        Path installed = Files.createDirectories(dir.resolve("config-keys"));
        for (Path file : EveryModule.keyFiles()) {
            Files.copy(file, installed.resolve(file.getName(file.getNameCount() - 7) + ".json"));
        }
        String before = System.getProperty(ConfigCatalog.KEY_FILES_PROPERTY);
        System.setProperty(ConfigCatalog.KEY_FILES_PROPERTY, installed.toString());
        try {
            ConfigLoader loader = new ConfigLoader(ConfigCatalog.installed());
            assertEquals("/opt/pbs/bin/qstat", loader.fromMap(Map.of("agent.pbs.qstat", "/opt/pbs/bin/qstat"),
                    EveryModule.TEST_PROGRAM).string("agent.pbs.qstat"));
            ConfigException typo = assertThrows(ConfigException.class, () -> loader.fromMap(
                    Map.of("agent.pbs.qstatt", "qstat"), EveryModule.TEST_PROGRAM));
            assertEquals(List.of("unknown setting agent.pbs.qstatt: did you mean agent.pbs.qstat?"), typo.problems());
        } finally {
            if (before == null) {
                System.clearProperty(ConfigCatalog.KEY_FILES_PROPERTY);
            } else {
                System.setProperty(ConfigCatalog.KEY_FILES_PROPERTY, before);
            }
        }
    }

    @Test
    void anInstalledKeyFileThatCannotBeReadIsNamed() {
        Path missing = dir.resolve("absent");
        ConfigException e = assertThrows(ConfigException.class,
                () -> ConfigCatalog.ofFiles(List.of(missing)));
        assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains("reinstall"),
                e.getMessage());
    }

    @Test
    void aKeyFileWithAMistakeIsRefusedNamingTheFileTheKeyAndTheMistake() {
        String file = "{\"keys\": [{\"key\": \"agent.x.a\", \"kind\": \"string\", \"description\": \"A.\"},"
                + " {\"key\": \"agent.x.b\", \"kind\": \"duraton\", \"description\": \"B.\"}]}";
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigKeyFile.parse(file, "x.json"));
        assertTrue(e.getMessage().startsWith("the configuration key file x.json, key 2 (agent.x.b) has the kind "
                + "\"duraton\"; the kinds are [duration,"), e.getMessage());
        assertThrows(ConfigException.class, () -> ConfigKeyFile.parse("{\"keys\": [{\"key\": \"a\", \"kind\": "
                + "\"choice\", \"description\": \"A.\"}]}", "x.json"), "a choice without choices");
        assertThrows(ConfigException.class, () -> ConfigKeyFile.parse("{\"keys\": [{\"key\": \"a\", \"kind\": "
                + "\"string\", \"descripton\": \"A.\"}]}", "x.json"), "an unknown field");
        assertThrows(ConfigException.class, () -> ConfigKeyFile.parse("{\"keys\": [{\"key\": \"a\", \"kind\": "
                + "\"string\", \"minimum\": \"1\", \"description\": \"A.\"}]}", "x.json"), "a minimum of a text");
        assertThrows(ConfigException.class, () -> ConfigKeyFile.parse("[]", "x.json"), "no keys array");
    }

    @Test
    void aKeyFileSaysEverythingTheCatalogNeeds() {
        List<ConfigKey> keys = ConfigKeyFile.parse("{\"keys\": [{\"key\": \"pool.<name>.speed\", \"kind\": "
                + "\"duration\", \"default\": \"5m\", \"minimum\": \"1s\", \"requiredBy\": [\"hpcscale-x\"], "
                + "\"description\": \"How fast.\"}]}", "x.json");
        assertEquals(List.of(new ConfigKey("pool.<name>.speed", ValueKind.DURATION, "5m", null, List.of(), 1000L,
                "How fast.", Set.of("hpcscale-x"))), keys);
    }
}
