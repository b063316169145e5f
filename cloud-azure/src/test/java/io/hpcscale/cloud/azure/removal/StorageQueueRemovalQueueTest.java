package io.hpcscale.cloud.azure.removal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import com.azure.storage.queue.QueueClient;
import com.azure.storage.queue.QueueClientBuilder;
import com.azure.storage.queue.models.QueueMessageItem;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.common.config.ConfigCatalog;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.ConfigLoader;
import io.hpcscale.common.config.Settings;
import io.hpcscale.common.testing.AzuriteTestServer;
import io.hpcscale.common.testing.TestCertificate;
import io.hpcscale.scaler.removal.RemovalQueueException.Failure;
import io.hpcscale.scaler.Programs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import io.hpcscale.scaler.removal.RemovalMessage;
import io.hpcscale.scaler.removal.RemovalRequests;
import io.hpcscale.scaler.removal.RemovalQueue;
import io.hpcscale.scaler.removal.RemovalQueueException;

/**
 * The Azure Storage queue adapter against Azurite, made from the scaler's settings with a connection string file:
 * delivery, redelivery, poison, and the failures a receive must not mistake for an empty queue.
 */
@ExtendWith(AzuriteTestServer.class)
class StorageQueueRemovalQueueTest {
    private static final AtomicInteger QUEUES = new AtomicInteger();
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final String name = "removals-" + QUEUES.incrementAndGet();
    private final Clock clock = Clock.systemUTC();

    /** The queue as the scaler opens it, on Azurite, with {@code more} settings. */
    private StorageQueueRemovalQueue removalsOn(String connectionString, String... more) throws IOException {
        Path file = dir.resolve("queue.connection");
        Files.writeString(file, connectionString);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Map<String, String> values = new HashMap<>(Map.of("azure.removalQueue.connectionStringFile", file.toString(),
                "azure.removalQueue.queue", name));
        for (int i = 0; i < more.length; i += 2) {
            values.put(more[i], more[i + 1]);
        }
        Settings settings = new ConfigLoader(ConfigCatalog.installed()).fromMap(values, Programs.SCALER);
        return StorageQueueRemovalQueue.open(RemovalQueueSettings.from(settings).orElseThrow(), settings, clock);
    }

    private StorageQueueRemovalQueue removals(String... more) throws IOException {
        return removalsOn(AzuriteTestServer.running().connectionString(), more);
    }

    /** The test's own client of a queue on Azurite, to create it and look inside. */
    private static QueueClient client(String connectionString, String queue) {
        return new QueueClientBuilder().connectionString(connectionString).queueName(queue)
                .httpClient(trustingTheTestCertificate())
                .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, 10, 100L, 100L, null)).buildClient();
    }

    /** The adapter's HTTP client, trusting Azurite's certificate over HTTPS, as JAVA_OPTS would in production. */
    private static HttpClient trustingTheTestCertificate() {
        return new JdkHttpClientBuilder(java.net.http.HttpClient.newBuilder()
                .sslContext(TestCertificate.get().clientContext())).build();
    }

    private QueueClient createdQueue() {
        QueueClient queue = client(AzuriteTestServer.running().connectionString(), name);
        queue.create();
        return queue;
    }

    /** Receives until a message comes, as one hidden for a second comes back within a little more. */
    private static RemovalMessage receiveWithin(RemovalQueue queue, Duration bound) throws Exception {
        Instant deadline = Instant.now().plus(bound);
        while (Instant.now().isBefore(deadline)) {
            List<RemovalMessage> received = queue.receive(1, SECOND);
            if (!received.isEmpty()) {
                return received.get(0);
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no message came within " + bound);
    }

    @Test
    void aSentRequestIsReceivedOnceAndGoneWhenDeleted() throws Exception {
        QueueClient queue = createdQueue();
        try (StorageQueueRemovalQueue removals = removals()) {
            String id = removals.send(RemovalRequests.uniform());

            List<RemovalMessage> received = removals.receive(RemovalQueue.MAX_RECEIVE, Duration.ofSeconds(30));

            assertEquals(1, received.size());
            RemovalMessage.Request request = assertInstanceOf(RemovalMessage.Request.class, received.get(0));
            assertEquals(RemovalRequests.uniform(), request.request());
            assertEquals(id, request.delivery().messageId());
            assertEquals(1, request.delivery().dequeueCount());
            assertEquals(List.of(), removals.receive(RemovalQueue.MAX_RECEIVE, Duration.ofSeconds(30)));
            assertTrue(removals.delete(request));
            assertEquals(0, queue.getProperties().getApproximateMessagesCountLong());
            assertEquals("queue " + name + " of storage account devstoreaccount1", removals.describe());
        }
    }

    @Test
    void aMessageNotDeletedComesBackAfterItsVisibilityTimeoutWithANewReceipt() throws Exception {
        createdQueue();
        try (StorageQueueRemovalQueue removals = removals()) {
            removals.send(RemovalRequests.uniform());

            RemovalMessage first = removals.receive(1, SECOND).get(0);
            RemovalMessage second = receiveWithin(removals, Duration.ofSeconds(5));

            assertEquals(first.delivery().messageId(), second.delivery().messageId());
            assertEquals(2, second.delivery().dequeueCount());
            assertNotEquals(first.delivery().popReceipt(), second.delivery().popReceipt());
            assertFalse(removals.delete(first), "the first receipt is stale: the second receiver deals with it");
            assertTrue(removals.delete(second));
            assertFalse(removals.delete(second), "deleted already");
        }
    }

    @Test
    void aMessageReceivedMoreThanMaxTriesTimesIsSetAsideOnThePoisonQueue() throws Exception {
        QueueClient queue = createdQueue();
        try (StorageQueueRemovalQueue removals = removals("azure.removalQueue.maxTries", "2")) {
            removals.send(RemovalRequests.uniform());
            assertInstanceOf(RemovalMessage.Request.class, removals.receive(1, SECOND).get(0));
            assertInstanceOf(RemovalMessage.Request.class, receiveWithin(removals, Duration.ofSeconds(5)));

            RemovalMessage.Poison poison = assertInstanceOf(RemovalMessage.Poison.class,
                    receiveWithin(removals, Duration.ofSeconds(5)));
            assertTrue(removals.setAside(poison, poison.reason()));

            assertEquals(0, queue.getProperties().getApproximateMessagesCountLong());
            List<QueueMessageItem> kept = client(AzuriteTestServer.running().connectionString(), name + "-poison")
                    .receiveMessages(32).stream().toList();
            assertEquals(1, kept.size());
            JsonNode copy = JSON.readTree(kept.get(0).getBody().toString());
            assertEquals("the removal of render_3 (" + RemovalRequests.UNIFORM_ID + ") was received 3 times "
                    + "without being carried out, more than maxTries (2)", copy.get("reason").asText());
            assertEquals(poison.body(), copy.get("body").asText());
            assertEquals(3, copy.get("dequeueCount").asInt());
            assertEquals(poison.delivery().messageId(), copy.get("messageId").asText());
        }
    }

    @Test
    void anUnreadableMessageIsPoisonAtOnceAndSettingItAsideTwiceIsHarmless() throws Exception {
        QueueClient queue = createdQueue();
        queue.sendMessage("please delete render000003");
        try (StorageQueueRemovalQueue removals = removals()) {
            RemovalMessage.Poison poison = assertInstanceOf(RemovalMessage.Poison.class,
                    removals.receive(1, Duration.ofSeconds(30)).get(0));

            assertTrue(removals.setAside(poison, poison.reason()));
            assertFalse(removals.setAside(poison, poison.reason()), "copied again, but no longer there to delete");

            assertTrue(poison.reason().startsWith("the message cannot be read: it is neither a JSON object nor "
                    + "base64-encoded JSON"), poison.reason());
            assertEquals(2, client(AzuriteTestServer.running().connectionString(), name + "-poison").getProperties()
                    .getApproximateMessagesCountLong());
        }
    }

    @Test
    void aConnectionStringTheStorageClientCannotReadIsRefusedWithoutRepeatingIt() {
        String unreadable = "c2VjcmV0LWtleS1wYXN0ZWQtYWxvbmU=";

        ConfigException e = assertThrows(ConfigException.class, () -> removalsOn(unreadable));

        assertEquals("azure.removalQueue.connectionStringFile " + dir.resolve("queue.connection") + " holds no "
                + "connection string the storage client can use: expected DefaultEndpointsProtocol=https;"
                + "AccountName=<account>;AccountKey=<key>;EndpointSuffix=core.windows.net (or a SharedAccessSignature "
                + "instead of the key)", e.getMessage());
        assertFalse(e.getMessage().contains(unreadable));
    }

    @Test
    void aMissingQueueIsNamedNotTakenForAnEmptyOne() throws Exception {
        try (StorageQueueRemovalQueue removals = removals()) {
            RemovalQueueException e = assertThrows(RemovalQueueException.class, () -> removals.receive(1, SECOND));

            assertEquals(Failure.QUEUE_MISSING, e.failure());
            assertTrue(e.getMessage().startsWith("cannot receive messages from queue " + name + " of storage account "
                    + "devstoreaccount1: the queue does not exist (404 QueueNotFound): create it"), e.getMessage());
        }
    }

    @Test
    void aKeyTheAccountRefusesIsDeniedAndNeverRepeated() throws Exception {
        createdQueue();
        String wrongKey = "V3JvbmdLZXlXcm9uZ0tleVdyb25nS2V5V3JvbmdLZXlXcm9uZ0tleVdyb25nS2V5V3JvbmdLZXk=";
        try (StorageQueueRemovalQueue removals = removalsOn(AzuriteTestServer.running().connectionString(wrongKey))) {
            RemovalQueueException e = assertThrows(RemovalQueueException.class, () -> removals.receive(1, SECOND));

            assertEquals(Failure.DENIED, e.failure());
            assertTrue(e.getMessage().contains("the storage account refused the connection string (403 "
                    + "AuthenticationFailed)"), e.getMessage());
            assertFalse(e.getMessage().contains(wrongKey), e.getMessage());
        }
    }

    @Test
    void aStoppedServiceIsAnErrorNotAnEmptyQueue() throws Exception {
        try (AzuriteTestServer.Running own = AzuriteTestServer.startOwn()) {
            client(own.connectionString(), name).create();
            try (StorageQueueRemovalQueue removals = removalsOn(own.connectionString())) {
                assertEquals(List.of(), removals.receive(1, SECOND));
                own.stop();

                Instant start = Instant.now();
                RemovalQueueException e = assertThrows(RemovalQueueException.class, () -> removals.receive(1, SECOND));

                assertEquals(Failure.UNREACHABLE, e.failure());
                assertTrue(e.getMessage().startsWith("cannot receive messages from queue " + name + " of storage "
                        + "account devstoreaccount1: the queue service cannot be reached, even after retries: "),
                        e.getMessage());
                assertFalse(e.getMessage().contains(AzuriteTestServer.KEY), e.getMessage());
                assertTrue(Duration.between(start, Instant.now()).compareTo(Duration.ofSeconds(10)) < 0,
                        "the retries are quick, so a cycle is not held up");
            }
        }
    }

    @Test
    void aBusyServiceIsThrottlingAndAFailingOneUnavailable() throws Exception {
        try (FailingQueueService busy = new FailingQueueService(503, "ServerBusy");
                StorageQueueRemovalQueue removals = removalsOn(busy.connectionString())) {
            RemovalQueueException e = assertThrows(RemovalQueueException.class, () -> removals.receive(1, SECOND));

            assertEquals(Failure.THROTTLED, e.failure());
            assertTrue(e.getMessage().endsWith("the queue service asks to slow down (503 ServerBusy), even after "
                    + "retries; try again later"), e.getMessage());
            assertEquals(3, busy.requests(), "the SDK's retries");
        }
        try (FailingQueueService throttling = new FailingQueueService(429, "TooManyRequests");
                StorageQueueRemovalQueue removals = removalsOn(throttling.connectionString())) {
            assertEquals(Failure.THROTTLED, assertThrows(RemovalQueueException.class,
                    () -> removals.send(RemovalRequests.uniform())).failure());
        }
        try (FailingQueueService failing = new FailingQueueService(500, "InternalError");
                StorageQueueRemovalQueue removals = removalsOn(failing.connectionString())) {
            RemovalQueueException e = assertThrows(RemovalQueueException.class, () -> removals.receive(1, SECOND));

            assertEquals(Failure.UNAVAILABLE, e.failure());
            assertTrue(e.getMessage().endsWith("the queue service failed (500 InternalError), even after retries"),
                    e.getMessage());
        }
    }

    /** Entra ID tokens as Azurite checks them: a JWT for Azure Storage from Entra ID, expiring {@code after} now. */
    private static String token(Duration after) {
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        long now = Instant.now().getEpochSecond();
        String claims = "{\"aud\":\"https://storage.azure.com\",\"iss\":\"https://sts.windows.net/"
                + "72f988bf-86f1-41af-91ab-2d7cd011db47/\",\"iat\":" + (now - 60) + ",\"nbf\":" + (now - 60)
                + ",\"exp\":" + (now + after.toSeconds()) + "}";
        return base64.encodeToString("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + base64.encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + ".c2lnbmF0dXJl";
    }

    @Test
    void aQueueGivenByUrlIsSignedInToWithATokenForAzureStorage() throws Exception {
        try (AzuriteTestServer.Running own = AzuriteTestServer.startOwnTakingTokens()) {
            client(own.connectionString(), name).create();
            List<String> scopes = new CopyOnWriteArrayList<>();
            TokenCredential identity = request -> {
                scopes.addAll(request.getScopes());
                return Mono.just(new AccessToken(token(Duration.ofHours(1)), OffsetDateTime.now().plusHours(1)));
            };
            QueueAccess access = new QueueAccess.WithIdentity(RemovalQueueSettings.queueUrl(own.queueEndpoint() + "/"
                    + name, "test"));
            try (StorageQueueRemovalQueue removals = StorageQueueRemovalQueue.open(access, identity,
                    trustingTheTestCertificate(), 1, clock)) {
                removals.send(RemovalRequests.uniform());
                RemovalMessage first = removals.receive(1, SECOND).get(0);
                RemovalMessage.Poison poison = assertInstanceOf(RemovalMessage.Poison.class,
                        receiveWithin(removals, Duration.ofSeconds(5)));

                assertEquals(RemovalRequests.uniform(), ((RemovalMessage.Request) first).request());
                assertTrue(removals.setAside(poison, poison.reason()), "the poison queue is created with the token");
                assertEquals(1, client(own.connectionString(), name + "-poison").getProperties()
                        .getApproximateMessagesCountLong());
                assertEquals(List.of("https://storage.azure.com/.default"), scopes.stream().distinct().toList());
            }
        }
    }

    @Test
    void aTokenTheServiceRefusesIsDeniedSayingWhichRoleTheIdentityNeeds() throws Exception {
        try (AzuriteTestServer.Running own = AzuriteTestServer.startOwnTakingTokens()) {
            client(own.connectionString(), name).create();
            TokenCredential expired = request -> Mono.just(new AccessToken(token(Duration.ofMinutes(-5)),
                    OffsetDateTime.now().plusHours(1)));
            QueueAccess access = new QueueAccess.WithIdentity(RemovalQueueSettings.queueUrl(own.queueEndpoint() + "/"
                    + name, "test"));
            try (StorageQueueRemovalQueue removals = StorageQueueRemovalQueue.open(access, expired,
                    trustingTheTestCertificate(), 5, clock)) {
                RemovalQueueException e = assertThrows(RemovalQueueException.class, () -> removals.receive(1, SECOND));

                assertEquals(Failure.DENIED, e.failure());
                assertTrue(e.getMessage().contains("the identity may not do this (403 AuthenticationFailed): give it "
                        + "Storage Queue Data Message Sender on the queue to send, or Storage Queue Data Contributor "
                        + "on the storage account to receive and set aside"), e.getMessage());
            }
        }
    }
}
