package io.hpcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.scaler.cli.ScalerMain;
import io.hpcscale.scaler.run.ScalerEvents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hpcscale-scaler once} as its own process, its stderr read as a journal or a log shipper would: a queued job
 * makes the scaler start one instance, and the log line of that decision is checked in both formats.
 */
class ScalerLogFormatTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path config;

    private record Run(int code, List<String> stderr) {
    }

    @BeforeEach
    void queuedJob() throws IOException {
        Path db = dir.resolve("clusterload.db");
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(db, Duration.ofSeconds(5), Clock.systemUTC())) {
            Instant now = Instant.now();
            new DocumentStore(store).upsert(List.of(new AgentDocument("agent-h-pbs", "pbs", "h", "t", now, 1,
                    List.of("sim"), null, now), new JobDocument("7.s", "sim", "7.s", "sim", JobState.Queued, 1,
                    List.of(new Chunk(1, 8, 0, 0)), Placement.free, false, now, "agent-h-pbs")));
        }
        config = config();
    }

    private Path config(String... extra) throws IOException {
        List<String> lines = new ArrayList<>(List.of("store.sqlite.path = " + dir.resolve("clusterload.db"),
                "pool.sim.provider = simulated", "pool.sim.max = 2", "pool.sim.cpus = 16",
                "pool.sim.memoryMb = 65536"));
        lines.addAll(List.of(extra));
        return Files.write(dir.resolve("hpcscale.properties"), lines);
    }

    /** The scaler with this environment (and no other HPCSCALE_ variable); stdout is not looked at. */
    private Run scaler(Map<String, String> environment, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), ScalerMain.class.getName()));
        command.addAll(List.of(args));
        Path stderr = dir.resolve("stderr");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("HPCSCALE_"));
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the scaler did not end within 60 s: " + Files.readString(stderr));
        }
        return new Run(process.exitValue(), Files.readAllLines(stderr));
    }

    /** Every line parsed: a line that is not one JSON object fails the test. */
    private static List<JsonNode> jsonLines(Run run) throws IOException {
        List<JsonNode> parsed = new ArrayList<>();
        for (String line : run.stderr()) {
            JsonNode node = JSON.readTree(line);
            assertTrue(node != null && node.isObject(), "not a JSON object: " + line + "\n" + run.stderr());
            parsed.add(node);
        }
        return parsed;
    }

    private static JsonNode theStart(List<JsonNode> lines) {
        List<JsonNode> starts = lines.stream().filter(l -> "start".equals(l.path("action").asText())).toList();
        assertEquals(1, starts.size(), lines.toString());
        return starts.get(0);
    }

    @Test
    void jsonLogLinesCarryPoolInstanceActionAndReason() throws Exception {
        Instant before = Instant.now();
        Run once = scaler(Map.of(), "once", "--log-format", "json", "--config", config.toString());
        assertEquals(0, once.code(), once.stderr().toString());
        JsonNode start = theStart(jsonLines(once));
        assertEquals("sim", start.path("pool").asText());
        assertEquals("sim_1", start.path("instance").asText());
        assertEquals("ok", start.path("outcome").asText());
        String reason = start.path("reason").asText();
        assertFalse(reason.isBlank(), start.toString());
        assertEquals("pool=sim instance=sim_1 action=start outcome=ok reason=" + reason,
                start.path("message").asText());
        assertEquals("INFO", start.path("level").asText());
        assertEquals(ScalerEvents.class.getName(), start.path("logger").asText());
        assertFalse(start.path("thread").asText().isEmpty(), start.toString());
        Instant time = Instant.parse(start.path("time").asText());
        assertTrue(start.path("time").asText().endsWith("Z") && time.isAfter(before.minusSeconds(1))
                && time.isBefore(Instant.now()), start.toString());
    }

    @Test
    void theSettingOrItsEnvironmentVariableChoosesJsonAndTheOptionOverridesBoth() throws Exception {
        Run fromFile = scaler(Map.of(), "once", "--config", config("log.format = json").toString());
        assertEquals("sim", theStart(jsonLines(fromFile)).path("pool").asText());

        Run fromEnvironment = scaler(Map.of("HPCSCALE_LOG_FORMAT", "json"), "--config", config().toString(), "once");
        assertEquals("sim", theStart(jsonLines(fromEnvironment)).path("pool").asText());

        Run overridden = scaler(Map.of("HPCSCALE_LOG_FORMAT", "json"), "--log-format", "text", "once", "--config",
                config("log.format = json").toString());
        assertTrue(overridden.stderr().stream().anyMatch(l -> l.contains(" INFO  ScalerEvents - pool=sim ")),
                overridden.stderr().toString());
        assertTrue(overridden.stderr().stream().noneMatch(l -> l.startsWith("{")), overridden.stderr().toString());
    }

    @Test
    void textFormatStaysTheDefault() throws Exception {
        Run once = scaler(Map.of(), "once", "--config", config.toString());
        assertEquals(0, once.code(), once.stderr().toString());
        List<String> starts = once.stderr().stream().filter(l -> l.contains(" action=start ")).toList();
        assertEquals(1, starts.size(), once.stderr().toString());
        assertTrue(starts.get(0).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) "
                + "INFO  ScalerEvents - pool=sim instance=sim_1 action=start outcome=ok reason=.+"), starts.get(0));
        assertTrue(once.stderr().stream().noneMatch(l -> l.startsWith("{")), once.stderr().toString());
    }

    @Test
    void anUnknownLogFormatIsRefusedNamingTheSetting() throws Exception {
        Run inFile = scaler(Map.of(), "once", "--config", config("log.format = yaml").toString());
        assertEquals(2, inFile.code(), inFile.stderr().toString());
        assertTrue(inFile.stderr().contains("  - log.format=yaml (in " + config + "): expected one of text, json"),
                inFile.stderr().toString());

        Run inEnvironment = scaler(Map.of("HPCSCALE_LOG_FORMAT", "Json"), "once", "--config", config().toString());
        assertEquals(2, inEnvironment.code(), inEnvironment.stderr().toString());
        assertTrue(inEnvironment.stderr().contains("  - log.format=Json (from environment variable "
                + "HPCSCALE_LOG_FORMAT): expected one of text, json"), inEnvironment.stderr().toString());

        Run onCommandLine = scaler(Map.of(), "once", "--log-format", "xml", "--config", config.toString());
        assertEquals(2, onCommandLine.code(), onCommandLine.stderr().toString());
        assertTrue(onCommandLine.stderr().get(0).contains("Invalid value for option '--log-format': expected text "
                + "or json, as for the setting log.format, but was 'xml'"), onCommandLine.stderr().toString());
    }
}
