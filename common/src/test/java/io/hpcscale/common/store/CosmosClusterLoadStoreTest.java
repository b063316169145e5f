package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.testing.CosmosTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The store contract against a real Cosmos DB protocol server, plus what only a remote store can do wrong. */
@ExtendWith(CosmosTestServer.class)
class CosmosClusterLoadStoreTest extends ClusterLoadStoreContract {
    private static final AtomicInteger CONTAINERS = new AtomicInteger();

    @TempDir
    Path dir;

    static CosmosSettings settings(String container, boolean createIfMissing, Duration timeout) {
        return new CosmosSettings(CosmosTestServer.running().endpoint(), "hpcscale", container, CosmosTestServer.KEY,
                null, List.of(), createIfMissing, false, timeout);
    }

    @Override
    protected ClusterLoadStore newStore(Clock clock) {
        CosmosTestServer.running().clearFaults();
        return new CosmosClusterLoadStore(settings("c" + CONTAINERS.incrementAndGet(), true, Duration.ofSeconds(10)));
    }

    @Override
    protected void letTimePass(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    @Test
    void throttledWritesAreRetriedAndNothingIsLost() {
        CosmosTestServer.running().fault("{\"status\":429,\"retryAfterMs\":50,\"count\":12,\"kinds\":[\"batch\",\"upsert\"]}");
        List<com.fasterxml.jackson.databind.node.ObjectNode> docs = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            docs.add(doc("jobs", "a", "j" + i, i));
        }
        store.upsertAll(docs);
        assertEquals(300, store.query(DocumentType.JOBS, "a").size());
    }

    @Test
    void aPersistentlyThrottledStoreFailsTheCallWithAClearMessage() {
        store.upsertAll(List.of(doc("jobs", "a", "1", 1)));
        CosmosTestServer.running().fault("{\"status\":429,\"retryAfterMs\":20,\"kinds\":[\"read\"]}");
        StoreException e = assertThrows(StoreException.class, () -> store.read(new DocumentKey("a", "1")));
        assertTrue(e.getMessage().contains("throttled (429)") && e.getMessage().contains("request units"),
                e.getMessage());
    }

    @Test
    void unavailableAnswersAreRetriedForWritesToo() {
        CosmosTestServer.running().fault("{\"status\":503,\"count\":2,\"kinds\":[\"upsert\",\"replace\"]}");
        store.upsertAll(List.of(doc("jobs", "a", "1", 1)));
        assertTrue(store.read(new DocumentKey("a", "1")).isPresent());
    }

    @Test
    void aHungServerFailsTheCallWithinTheRequestTimeout() {
        try (CosmosClusterLoadStore quick = new CosmosClusterLoadStore(settings("hung" + CONTAINERS.incrementAndGet(),
                true, Duration.ofSeconds(2)))) {
            quick.upsertAll(List.of(doc("jobs", "a", "1", 1)));
            CosmosTestServer.running().fault("{\"hang\":true,\"kinds\":[\"read\"]}");
            Instant began = Instant.now();
            StoreException e = assertThrows(StoreException.class, () -> quick.read(new DocumentKey("a", "1")));
            Duration took = Duration.between(began, Instant.now());
            assertTrue(took.compareTo(Duration.ofSeconds(15)) < 0, "bounded: " + took);
            assertTrue(e.getMessage().contains("store.cosmos.requestTimeout") || e.getMessage().contains("408"),
                    e.getMessage());
        } finally {
            CosmosTestServer.running().clearFaults();
        }
    }

    @Test
    void aServerThatRefusesConnectionsIsAStoreErrorNotAnEmptyAnswer() {
        store.upsertAll(List.of(doc("jobs", "a", "1", 1)));
        CosmosTestServer.running().fault("{\"down\":true}");
        try {
            assertThrows(StoreException.class, () -> store.query(DocumentType.JOBS, "a"));
            assertThrows(StoreException.class, () -> store.read(new DocumentKey("a", "1")));
        } finally {
            CosmosTestServer.running().clearFaults();
        }
        assertEquals(1, store.query(DocumentType.JOBS, "a").size(), "and it recovers once the server is back");
    }

    @Test
    void aMissingContainerIsNamedWithWhatToCreateWhenItMayNotBeCreated() {
        try (CosmosClusterLoadStore strict = new CosmosClusterLoadStore(settings("never-made", false,
                Duration.ofSeconds(10)))) {
            StoreException e = assertThrows(StoreException.class, () -> strict.read(new DocumentKey("a", "1")));
            assertTrue(e.getMessage().contains("does not exist") && e.getMessage().contains("--partition-key-path "
                    + "/PoolName --ttl -1") && e.getMessage().contains("createIfMissing"), e.getMessage());
        }
    }

    @Test
    void countsRequestsAndRequestUnits() {
        StoreUsage before = store.usage();
        store.upsertAll(List.of(doc("jobs", "a", "1", 1)));
        store.read(new DocumentKey("a", "1"));
        StoreUsage used = store.usage().minus(before);
        assertTrue(used.requests() >= 2 && used.requestUnits() >= 2, used.toString());
    }

    @Test
    void refusesAKeyFileOthersCanRead() throws Exception {
        Path key = dir.resolve("cosmos.key");
        Files.writeString(key, CosmosTestServer.KEY);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        ConfigException open = assertThrows(ConfigException.class, () -> CosmosSettings.readKey(key));
        assertTrue(open.getMessage().contains("readable by other users") && open.getMessage().contains("chmod 600"),
                open.getMessage());
        assertTrue(!open.getMessage().contains(CosmosTestServer.KEY), "the key itself is never in a message");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        assertEquals(CosmosTestServer.KEY, CosmosSettings.readKey(key));
    }
}
