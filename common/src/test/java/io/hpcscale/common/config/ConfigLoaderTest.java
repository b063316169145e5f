package io.hpcscale.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
    private final ConfigLoader loader = EveryModule.loader();

    @TempDir
    Path dir;

    private Path file(String... lines) throws IOException {
        Path file = dir.resolve("hpcscale.properties");
        Files.write(file, List.of(lines));
        return file;
    }

    private ConfigException problems(Path file, Map<String, String> env) {
        return assertThrows(ConfigException.class, () -> loader.load(file, env, EveryModule.TEST_PROGRAM));
    }

    @Test
    void appliesDefaultsForKeysNotSet() throws IOException {
        Settings settings = loader.load(file("pool.pinta00.nodePattern = pinta.*"), Map.of(), EveryModule.TEST_PROGRAM);
        assertEquals(Duration.ofSeconds(120), settings.duration("agent.interval"));
        assertEquals("sqlite", settings.string("store.type"));
        assertEquals("qstat", settings.string("agent.pbs.qstat"));
        assertEquals("pinta00", settings.pool("pinta00").string("queue"));
        assertEquals(512L << 20, settings.size("agent.commandMaxOutput"));
    }

    @Test
    void keysEndingInAPartTheAdministratorNamesAcceptAnyNameThereAndCheckTheirValue() throws IOException {
        Settings settings = loader.load(file("shared.matlab_r2026.total = 3", "pool.hb.resource.ib-fdr = true",
                "pool.hb.node.vm_size = Standard_HB120rs_v3", "pool.hb.provider = simulated"), Map.of(),
                EveryModule.TEST_PROGRAM);
        assertEquals(3, settings.integer("shared.matlab_r2026.total"));
        assertEquals("true", settings.string("pool.hb.resource.ib-fdr"));
        ConfigException e = problems(file("shared.matlab.total = three", "shared.matlab.totl = 3"), Map.of());
        assertEquals(2, e.problems().size(), e.getMessage());
        assertTrue(e.problems().get(0).startsWith("shared.matlab.total=three"), e.getMessage());
        assertTrue(e.problems().get(1).startsWith("unknown setting shared.matlab.totl"), e.getMessage());
    }

    @Test
    void namesAnUnknownKeyAndSuggestsTheNearestOne() throws IOException {
        ConfigException e = problems(file("agent.intervall=90s", "pool.gpu.quue=gpuq"), Map.of());
        assertEquals(2, e.problems().size());
        assertTrue(e.problems().get(0).startsWith("unknown setting agent.intervall"), e.getMessage());
        assertTrue(e.problems().get(0).endsWith("did you mean agent.interval?"), e.getMessage());
        assertTrue(e.problems().get(1).contains("did you mean pool.gpu.queue?"), e.getMessage());
    }

    @Test
    void aKeyGivenTwiceIsAnErrorNamingBothLines() throws IOException {
        ConfigException e = problems(file(
                "# the pool \\",
                "pool.gpu.queue = gpuq",
                "agent.interval = 90s",
                "pool.gpu.max = 4",
                "  agent.interval : 60s",
                "agent.pbs.qstat = /usr/bin/qstat \\",
                "  agent.interval = not a key of its own"), Map.of());
        assertEquals(1, e.problems().size(), e.getMessage());
        assertEquals("agent.interval is given 2 times in " + dir.resolve("hpcscale.properties")
                + ", on lines 3 and 5: keep one of them", e.problems().get(0));
    }

    @Test
    void aCommentEndingInABackslashDoesNotHideTheNextKeysRepetition() throws IOException {
        ConfigException e = problems(file("# see C:\\", "pool.gpu.queue = gpuq", "pool.gpu.queue = gpuq2"),
                Map.of());
        assertTrue(e.problems().get(0).startsWith("pool.gpu.queue is given 2 times") && e.problems().get(0)
                .contains("on lines 2 and 3"), e.getMessage());
    }

    @Test
    void namesABadValueAndTheExpectedForm() throws IOException {
        ConfigException e = problems(file("agent.interval=2 minutes", "store.type=postgres",
                "agent.commandTimeout=10ms", "pool.x.nodePattern=node[0-9"), Map.of());
        String all = e.getMessage();
        assertTrue(all.contains("agent.interval=2 minutes (in " + dir.resolve("hpcscale.properties")
                + "): expected a duration like 90s, 5m or 2h"), all);
        assertTrue(all.contains("store.type=postgres") && all.contains("expected one of sqlite, cosmos, memory"), all);
        assertTrue(all.contains("agent.commandTimeout=10ms") && all.contains("at least 100ms"), all);
        assertTrue(all.contains("pool.x.nodePattern=node[0-9") && all.contains("regular expression"), all);
    }

    @Test
    void refusesAnEmptyValueAndSaysWhatTheDefaultWouldBe() throws IOException {
        ConfigException e = problems(file("agent.interval ="), Map.of());
        assertTrue(e.getMessage().contains("agent.interval") && e.getMessage().contains("has no value")
                && e.getMessage().contains("(120s)"), e.getMessage());
    }

    @Test
    void saysHowToFixAMissingFile() {
        ConfigException e = problems(dir.resolve("absent.properties"), Map.of());
        assertTrue(e.getMessage().contains("does not exist") && e.getMessage().contains("--config"),
                e.getMessage());
    }

    @Test
    void environmentOverridesTheFile() throws IOException {
        Settings settings = loader.load(file("agent.interval=90s", "pool.gpu.queue=gpuq"),
                Map.of("HPCSCALE_AGENT_INTERVAL", "30s", "HPCSCALE_POOL_GPU_QUEUE", "gpu2",
                        "HPCSCALE_POOL_CPU_NODEPATTERN", "cpu.*", "PATH", "/usr/bin"),
                EveryModule.TEST_PROGRAM);
        assertEquals(Duration.ofSeconds(30), settings.duration("agent.interval"));
        assertEquals("gpu2", settings.pool("gpu").string("queue"));
        assertEquals(List.of("cpu", "gpu"), List.copyOf(settings.poolNames()));
    }

    @Test
    void refusesAnEnvironmentOverrideOfNoSetting() throws IOException {
        ConfigException e = problems(file("agent.interval=90s"), Map.of("HPCSCALE_AGENT_INTERVALL", "30s"));
        assertTrue(e.getMessage().contains("environment variable HPCSCALE_AGENT_INTERVALL overrides no setting"),
                e.getMessage());
    }

    @Test
    void checksValuesGivenInTheEnvironment() throws IOException {
        ConfigException e = problems(file("agent.interval=90s"), Map.of("HPCSCALE_AGENT_INTERVAL", "soon"));
        assertTrue(e.getMessage().contains("agent.interval=soon (from environment variable HPCSCALE_AGENT_INTERVAL)"),
                e.getMessage());
    }

    @Test
    void refusesAPoolNameThatCannotBeAPartitionKey() throws IOException {
        ConfigException e = problems(file("pool._meta.queue=q"), Map.of());
        assertTrue(e.getMessage().contains("pool name '_meta'"), e.getMessage());
    }

    @Test
    void parsesDurationsAndSizesAsWritten() {
        assertEquals(Duration.ofSeconds(90), Durations.parse("90s"));
        assertEquals(Duration.ofMinutes(5), Durations.parse("5m"));
        assertEquals(Duration.ofHours(2), Durations.parse(" 2h "));
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals("5m", Durations.format(Duration.ofMinutes(5)));
        assertEquals("90s", Durations.format(Duration.ofSeconds(90)));
        assertEquals(2L << 30, Sizes.parse("2GB"));
        assertEquals(65536, Sizes.parse("65536"));
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("5"));
    }
}
