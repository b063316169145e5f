package io.hpcscale.common.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.EveryModule;
import io.hpcscale.common.config.ConfigLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The console's two formats, as the packaged logback.xml writes them on stderr. */
class LogFormatTest {
    private static final Logger log = LoggerFactory.getLogger(LogFormatTest.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ConfigLoader loader = EveryModule.loader();

    @TempDir
    Path dir;

    @AfterEach
    void backToText() {
        LogOutput.use(LogFormat.TEXT);
    }

    private static List<JsonNode> jsonLines(List<String> lines) throws IOException {
        List<JsonNode> parsed = new ArrayList<>();
        for (String line : lines) {
            JsonNode node = JSON.readTree(line);
            assertTrue(node.isObject(), "not one JSON object: " + line);
            parsed.add(node);
        }
        return parsed;
    }

    private Path file(String... lines) throws IOException {
        return Files.write(dir.resolve("hpcscale.properties"), List.of(lines));
    }

    @Test
    void jsonLinesHoldTimeLevelLoggerThreadMessageAndTheKeyValuePairsAsFields() throws IOException {
        LogOutput.use(LogFormat.JSON);
        Instant before = Instant.now().minusMillis(1);
        List<String> lines;
        try (CapturedStderr err = new CapturedStderr()) {
            log.atWarn().addKeyValue(LogFields.POOL, "hb120").addKeyValue(LogFields.INSTANCE, "hb120_3")
                    .addKeyValue(LogFields.NODE, (String) null).addKeyValue("attempt", 2)
                    .log("pool=hb120 instance=hb120_3 said \"no\"\nand then {}", "stopped");
            lines = err.lines();
        }
        assertEquals(1, lines.size(), "one event, one line: " + lines);
        JsonNode line = jsonLines(lines).get(0);
        Instant time = Instant.parse(line.path("time").asText());
        assertTrue(line.path("time").asText().endsWith("Z") && !time.isBefore(before)
                && !time.isAfter(Instant.now()), line.toString());
        assertEquals("WARN", line.path("level").asText());
        assertEquals(LogFormatTest.class.getName(), line.path("logger").asText());
        assertEquals(Thread.currentThread().getName(), line.path("thread").asText());
        assertEquals("pool=hb120 instance=hb120_3 said \"no\"\nand then stopped", line.path("message").asText());
        assertEquals("hb120", line.path("pool").asText());
        assertEquals("hb120_3", line.path("instance").asText());
        assertTrue(line.path("attempt").isInt(), line.toString());
        assertFalse(line.has("node"), "a field not known is left out: " + line);
        assertFalse(line.has("error") || line.has("stack_trace"), line.toString());
    }

    @Test
    void anExceptionBecomesErrorAndStackTraceOnTheSameLine() throws IOException {
        LogOutput.use(LogFormat.JSON);
        List<String> lines;
        try (CapturedStderr err = new CapturedStderr()) {
            log.atError().addKeyValue(LogFields.POOL, "gpu").setCause(new IllegalStateException("cycle broke",
                    new java.io.IOException("disk gone"))).log("pool=gpu its cycle failed unexpectedly");
            lines = err.lines();
        }
        assertEquals(1, lines.size(), "the stack trace stays inside the line: " + lines);
        JsonNode line = jsonLines(lines).get(0);
        assertEquals("java.lang.IllegalStateException: cycle broke", line.path("error").asText());
        String stack = line.path("stack_trace").asText();
        assertTrue(stack.startsWith("java.lang.IllegalStateException: cycle broke\n\tat "
                + LogFormatTest.class.getName()), stack);
        assertTrue(stack.contains("Caused by: java.io.IOException: disk gone"), stack);
        assertEquals("gpu", line.path("pool").asText());
    }

    @Test
    void textLinesKeepThePatternAndLeaveTheKeyValuePairsOut() {
        LogOutput.use(LogFormat.JSON);
        LogOutput.use(LogFormat.TEXT);
        List<String> lines;
        try (CapturedStderr err = new CapturedStderr()) {
            log.atInfo().addKeyValue(LogFields.POOL, "hb120").addKeyValue(LogFields.ACTION, "stop")
                    .log("pool=hb120 action=stop");
            lines = err.lines();
        }
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) "
                + "INFO  LogFormatTest - pool=hb120 action=stop"), lines.get(0));
    }

    @Test
    void theSettingDefaultsToTextAndItsEnvironmentVariableOverridesTheFile() throws IOException {
        assertEquals(LogFormat.TEXT, LogFormat.of(loader.fromMap(Map.of(), EveryModule.TEST_PROGRAM)));
        Path file = file("log.format = text");
        assertEquals(LogFormat.TEXT, LogFormat.of(loader.load(file, Map.of(), EveryModule.TEST_PROGRAM)));
        assertEquals(LogFormat.JSON, LogFormat.of(loader.load(file, Map.of("HPCSCALE_LOG_FORMAT", "json"),
                EveryModule.TEST_PROGRAM)));
    }

    @Test
    void anUnknownLogFormatIsRefusedNamingTheSetting() throws IOException {
        Path file = file("log.format = logfmt");
        ConfigException inFile = assertThrows(ConfigException.class,
                () -> loader.load(file, Map.of(), EveryModule.TEST_PROGRAM));
        assertEquals(List.of("log.format=logfmt (in " + file + "): expected one of text, json"), inFile.problems());
        Path valid = file("log.format = text");
        ConfigException inEnvironment = assertThrows(ConfigException.class,
                () -> loader.load(valid, Map.of("HPCSCALE_LOG_FORMAT", "JSON"), EveryModule.TEST_PROGRAM));
        assertEquals(List.of("log.format=JSON (from environment variable HPCSCALE_LOG_FORMAT): expected one of "
                + "text, json"), inEnvironment.problems());
    }

    @Test
    void everyFormatTheCatalogAllowsIsAFormat() {
        List<String> choices = ConfigCatalog.installed().require(LogFormat.SETTING).choices();
        assertEquals(choices, Arrays.stream(LogFormat.values()).map(LogFormat::wireName).toList());
    }
}
