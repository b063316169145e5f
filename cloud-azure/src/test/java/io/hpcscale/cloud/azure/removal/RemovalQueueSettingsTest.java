package io.hpcscale.cloud.azure.removal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.scaler.Programs;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RemovalQueueSettingsTest {
    private static final String URL = "https://renderfarm.queue.core.windows.net/hpcscale-removals";
    private static final String CONNECTION_STRING = "DefaultEndpointsProtocol=https;AccountName=renderfarm;"
            + "AccountKey=c2VjcmV0LWtleS1vZi10aGUtcmVuZGVyLWZhcm0=;EndpointSuffix=core.windows.net";

    @TempDir
    Path dir;

    private static Optional<RemovalQueueSettings> settings(Map<String, String> values) {
        return RemovalQueueSettings.from(new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER));
    }

    private static String refusal(Map<String, String> values) {
        return String.join("\n", assertThrows(ConfigException.class, () -> settings(values)).problems());
    }

    private Path connectionStringFile(String mode) throws IOException {
        Path file = dir.resolve("queue.connection");
        Files.writeString(file, CONNECTION_STRING + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    @Test
    void withNeitherAUrlNorAConnectionStringThereIsNoRemovalQueue() {
        assertEquals(Optional.empty(), settings(Map.of()));
        assertEquals(Optional.empty(), settings(Map.of("azure.removalQueue.maxTries", "3")));
    }

    @Test
    void aQueueUrlIsSignedInToWithTheScalersIdentity() {
        RemovalQueueSettings settings = settings(Map.of("azure.removalQueue.url", URL + "/")).orElseThrow();

        QueueAccess.WithIdentity access = assertInstanceOf(QueueAccess.WithIdentity.class, settings.access());
        assertEquals(URI.create(URL), access.queueUrl());
        assertEquals("hpcscale-removals", access.queue());
        assertEquals("https://renderfarm.queue.core.windows.net", access.serviceUrl());
        assertEquals(5, settings.maxTries());
        assertEquals(Duration.ofMinutes(5), settings.visibilityTimeout());
    }

    @Test
    void anIpStyleUrlNamesTheAccountBeforeTheQueue() {
        QueueAccess.WithIdentity access = (QueueAccess.WithIdentity) settings(Map.of("azure.removalQueue.url",
                "https://10.1.2.3:10001/renderfarm/hpcscale-removals")).orElseThrow().access();

        assertEquals("hpcscale-removals", access.queue());
        assertEquals("https://10.1.2.3:10001/renderfarm", access.serviceUrl());
    }

    @Test
    void aUrlCarryingASasIsRefusedWithoutRepeatingIt() {
        String problem = refusal(Map.of("azure.removalQueue.url", URL + "?sv=2023-11-03&sig=c2VjcmV0"));

        assertEquals("azure.removalQueue.url " + URL + " carries a query (a SAS?): a secret does not belong there. "
                + "Give the queue's URL alone and sign in with an identity, or use a connection string file", problem);
        assertFalse(problem.contains("c2VjcmV0"));
    }

    @Test
    void aUrlThatIsNotHttpsOrNamesNoQueueIsRefused() {
        assertTrue(refusal(Map.of("azure.removalQueue.url", "http://renderfarm.queue.core.windows.net/q-1"))
                .contains("must be an https:// URL: tokens are sent only over HTTPS"));
        assertTrue(refusal(Map.of("azure.removalQueue.url", "https://renderfarm.queue.core.windows.net/"))
                .contains("does not name a queue"));
        assertTrue(refusal(Map.of("azure.removalQueue.url", "https://renderfarm.queue.core.windows.net/Removals"))
                .contains("'Removals' is not a queue name this can use: 3 to 56 lower-case letters"));
    }

    @Test
    void aConnectionStringIsReadFromAFileOnlyItsUserCanRead() throws IOException {
        RemovalQueueSettings settings = settings(Map.of("azure.removalQueue.connectionStringFile",
                connectionStringFile("rw-------").toString(), "azure.removalQueue.queue", "hpcscale-removals",
                "azure.removalQueue.maxTries", "2", "azure.removalQueue.visibilityTimeout", "90s")).orElseThrow();

        QueueAccess.WithConnectionString access = assertInstanceOf(QueueAccess.WithConnectionString.class,
                settings.access());
        assertEquals("hpcscale-removals", access.queue());
        assertEquals(CONNECTION_STRING, access.connectionString().reveal());
        assertFalse(settings.toString().contains("AccountKey"), settings.toString());
        assertEquals(2, settings.maxTries());
        assertEquals(Duration.ofSeconds(90), settings.visibilityTimeout());
    }

    @Test
    void aConnectionStringFileOthersCanReadIsRefused() throws IOException {
        Path file = connectionStringFile("rw-r--r--");

        String problem = refusal(Map.of("azure.removalQueue.connectionStringFile", file.toString(),
                "azure.removalQueue.queue", "hpcscale-removals"));

        assertEquals("azure.removalQueue.connectionStringFile " + file + " is readable by other users (mode "
                + "rw-r--r--): the connection string holds the storage account's key or a SAS. Make it readable by "
                + "its user only: chmod 600 " + file, problem);
    }

    @Test
    void aMissingOrEmptyConnectionStringFileIsNamed() throws IOException {
        Path missing = dir.resolve("absent");
        assertTrue(refusal(Map.of("azure.removalQueue.connectionStringFile", missing.toString(),
                "azure.removalQueue.queue", "q-1")).startsWith("azure.removalQueue.connectionStringFile " + missing
                        + " does not exist"));
        Path empty = connectionStringFile("rw-------");
        Files.writeString(empty, "\n");
        assertTrue(refusal(Map.of("azure.removalQueue.connectionStringFile", empty.toString(),
                "azure.removalQueue.queue", "q-1")).contains(" is empty: put the storage account's connection"));
    }

    @Test
    void contradictoryOrIncompleteSettingsSayWhichToChange() throws IOException {
        String file = connectionStringFile("rw-------").toString();

        assertTrue(refusal(Map.of("azure.removalQueue.url", URL, "azure.removalQueue.connectionStringFile", file))
                .startsWith("azure.removalQueue.url and azure.removalQueue.connectionStringFile are both set"));
        assertEquals("azure.removalQueue.queue is required with azure.removalQueue.connectionStringFile: the name of "
                + "the queue in that storage account",
                refusal(Map.of("azure.removalQueue.connectionStringFile", file)));
        assertEquals("azure.removalQueue.queue is set with azure.removalQueue.url, which already names the queue: "
                + "remove azure.removalQueue.queue", refusal(Map.of("azure.removalQueue.url", URL,
                        "azure.removalQueue.queue", "q-1")));
        assertTrue(refusal(Map.of("azure.removalQueue.queue", "q-1"))
                .startsWith("azure.removalQueue.queue is set but neither"));
    }

    @Test
    void queueNamesFollowTheServicesRulesWithRoomForThePoisonSuffix() {
        assertEquals("abc", RemovalQueueSettings.checkName("abc", "x"));
        assertEquals("a".repeat(56), RemovalQueueSettings.checkName("a".repeat(56), "x"));
        for (String bad : new String[] {"ab", "a".repeat(57), "-abc", "abc-", "ab--c", "ab_c", "Abc"}) {
            assertThrows(ConfigException.class, () -> RemovalQueueSettings.checkName(bad, "x"), bad);
        }
    }

    @Test
    void aVisibilityTimeoutBeyondTheServicesBoundsIsRefused() {
        assertEquals("azure.removalQueue.visibilityTimeout must be whole seconds, at most 7d (the queue service's "
                + "limit), not 1500ms", refusal(Map.of("azure.removalQueue.url", URL,
                        "azure.removalQueue.visibilityTimeout", "1500ms")));
        assertTrue(refusal(Map.of("azure.removalQueue.url", URL, "azure.removalQueue.visibilityTimeout", "8d"))
                .contains("at most 7d"));
        assertTrue(refusal(Map.of("azure.removalQueue.url", URL, "azure.removalQueue.maxTries", "0"))
                .contains("of at least 1"));
    }
}
