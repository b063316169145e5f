package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.CosmosIds;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.testing.CosmosTestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
                null, List.of(), null, createIfMissing, false, timeout, 0);
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
    void namesWithPercentHashQuestionMarksSpacesAndThreeHundredCharactersRoundTrip() {
        List<String> names = List.of("12[%3].pbsserver", "100%", "job#7", "what?", "a job with spaces",
                "tilde~7E", "n".repeat(150) + "%#?/ \\" + "m".repeat(144), "x".repeat(1500));
        for (String name : names) {
            String id = CosmosIds.encode(name);
            ObjectNode document = doc("jobs", "pool %#?", id, 1);
            document.put("Name", name);
            store.upsertAll(List.of(document));
            DocumentKey key = new DocumentKey("pool %#?", id);
            StoredDocument read = store.read(key).orElseThrow();
            assertEquals(name, read.json().path("Name").asText());
            document.put("Value", 2);
            store.replaceIfMatch(document, read.etag());
            assertEquals(2, store.read(key).orElseThrow().json().path("Value").asInt());
            store.deleteAll(List.of(key));
            assertTrue(store.read(key).isEmpty(), name);
        }
        List<ObjectNode> batch = names.stream().map(n -> doc("vms", "pool %#?", CosmosIds.encode(n), 3)).toList();
        store.upsertAll(batch);
        assertEquals(names.size(), store.query(DocumentType.VMS, "pool %#?").size());
    }

    @Test
    void anIdWithPercentIsCreatedButCannotBeReadAsOnARealAccountInGatewayMode() {
        store.upsertAll(List.of(doc("jobs", "a", "12[%253].pbsserver", 1)));
        StoreException e = assertThrows(StoreException.class,
                () -> store.read(new DocumentKey("a", "12[%253].pbsserver")));
        assertTrue(e.getMessage().contains("401"), e.getMessage());
        assertEquals(1, store.query(DocumentType.JOBS, "a").size(), "a query still finds it, so it can be replaced");
    }

    @Test
    void anIdOverTheLimitIsNamedAndTheRestOfItsBatchIsWritten() {
        String tooLong = "j".repeat(CosmosIds.MAX_BYTES + 1);
        StoreException e = assertThrows(StoreException.class, () -> store.upsertAll(List.of(doc("jobs", "a", "1", 1),
                doc("jobs", "a", tooLong, 1), doc("jobs", "a", "2", 1))));
        assertTrue(e.getMessage().contains("1024 bytes") && e.getMessage().contains("'jjjj")
                && e.getMessage().contains("pool a"), e.getMessage());
        assertEquals(2, store.query(DocumentType.JOBS, "a").size());
    }

    @Test
    void aConditionalWriteThatCommittedBehindA503IsNotTakenForAnotherWriter() {
        store.upsertAll(List.of(doc("lease", "_meta", "scaler-lease", 1)));
        StoredDocument lease = store.read(new DocumentKey("_meta", "scaler-lease")).orElseThrow();
        CosmosTestServer.running().fault("{\"status\":503,\"afterCommit\":true,\"count\":1,\"kinds\":[\"replace\"]}");
        String etag = store.replaceIfMatch(doc("lease", "_meta", "scaler-lease", 2), lease.etag());
        StoredDocument now = store.read(new DocumentKey("_meta", "scaler-lease")).orElseThrow();
        assertEquals(now.etag(), etag);
        assertEquals(2, now.json().path("Value").asInt());

        CosmosTestServer.running().fault("{\"status\":503,\"afterCommit\":true,\"count\":1,\"kinds\":[\"create\"]}");
        store.create(doc("lease", "_meta", "created-once", 1));
        assertThrows(EtagConflictException.class, () -> store.create(doc("lease", "_meta", "created-once", 9)),
                "a create of a different document over it is still a conflict");
        assertThrows(EtagConflictException.class, () -> store.replaceIfMatch(doc("lease", "_meta", "scaler-lease",
                3), lease.etag()), "another writer's change is still a conflict");
    }

    @Test
    void chargesRequestUnitsAsAzureBillsThem() {
        CosmosTestServer.running().resetStats();
        StoreUsage before = store.usage();
        ObjectNode big = doc("jobs", "a", "big", 1);
        big.put("Padding", "p".repeat(4000));
        store.upsertAll(List.of(big));
        store.read(new DocumentKey("a", "big"));
        store.query(DocumentType.JOBS, "a");
        StoreUsage used = store.usage().minus(before);
        // A 4 KB insert ~22 RU, its point read 4 RU, a query returning it 2.5 + 4 RU.
        assertTrue(used.requestUnits() > 30 && used.requestUnits() < 40, used.toString());
        assertEquals(used.requestUnits(), CosmosTestServer.running().requestCharge(), 0.01);
    }

    @Test
    void aContainerOverItsProvisionedThroughputIsRetriedThroughAndLosesNothing() {
        CosmosTestServer.running().throughput(400);
        try {
            List<ObjectNode> documents = new java.util.ArrayList<>();
            for (int i = 0; i < 400; i++) {
                documents.add(doc("jobs", "a", "j" + i, i));
            }
            store.upsertAll(documents);
            assertEquals(400, store.query(DocumentType.JOBS, "a").size());
            assertTrue(CosmosTestServer.running().stats().path("throttled").asInt() > 0,
                    "2,000 RU of writes must meet 429s at 400 RU/s");
        } finally {
            CosmosTestServer.running().throughput(0);
        }
    }

    @Test
    void aPoolsChangesCostOnlyWhatChanged() throws Exception {
        java.util.Set<DocumentType> types = java.util.Set.of(DocumentType.JOBS, DocumentType.VMS);
        List<ObjectNode> jobs = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            jobs.add(doc("jobs", "a", "j" + i, i));
        }
        store.upsertAll(jobs);
        PoolChanges whole = store.changesSince("a", types, PoolChanges.START);
        assertEquals(200, whole.documents().size());
        // The last second is read again (a write of it may have committed after the read), until a read begun
        // seconds later has gone back over it: every write of that second had landed by then.
        assertEquals(200, store.changesSince("a", types, whole.position()).documents().size());
        Thread.sleep(2_500);
        assertEquals(200, store.changesSince("a", types, whole.position()).documents().size());
        store.upsertAll(List.of(doc("jobs", "a", "j7", 700), doc("jobs", "a", "new", 1)));
        store.deleteAll(List.of(new DocumentKey("a", "j8")));
        CosmosTestServer.running().resetStats();
        PoolChanges changes = store.changesSince("a", types, whole.position());
        assertEquals(java.util.Set.of("a/j7", "a/new"), changes.documents().stream()
                .map(d -> d.key().toString()).collect(java.util.stream.Collectors.toSet()));
        assertEquals(List.of(new DocumentKey("a", "j8")), changes.deleted());
        assertTrue(CosmosTestServer.running().requestCharge() < 10, "three small documents, not 200: "
                + CosmosTestServer.running().requestCharge() + " RU");
    }

    @Test
    void eventsAreFilteredByTimeAndPoolOnTheServerAndFollowedByWhatWasWritten() throws Exception {
        Instant now = Instant.parse("2026-11-26T10:00:00Z");
        List<ObjectNode> events = new java.util.ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ObjectNode event = doc("events", i % 2 == 0 ? "a" : "b", "evt-" + i, i);
            event.put("At", now.minusSeconds(3600 - i).toString());
            events.add(event);
        }
        store.upsertAll(events);
        CosmosTestServer.running().resetStats();
        PoolChanges recent = store.eventsSince("a", now.minusSeconds(3600 - 290), PoolChanges.START);
        assertEquals(java.util.Set.of("evt-290", "evt-292", "evt-294", "evt-296", "evt-298"), recent.documents()
                .stream().map(d -> d.key().id()).collect(java.util.stream.Collectors.toSet()));
        assertTrue(CosmosTestServer.running().requestCharge() < 10, "5 events read, not 300: "
                + CosmosTestServer.running().requestCharge());
        assertEquals(300 - 289, store.eventsSince(null, now.minusSeconds(3600 - 290), PoolChanges.START)
                .documents().size(), "every pool, from the same time and the second before");

        Thread.sleep(2_500);
        ObjectNode late = doc("events", "a", "evt-late", 1);
        late.put("At", now.minusSeconds(7200).toString());
        store.upsertAll(List.of(late));
        PoolChanges next = store.eventsSince("a", now.minusSeconds(3600 - 290), recent.position());
        assertTrue(next.documents().stream().anyMatch(d -> d.key().id().equals("evt-late")),
                "an event written late, with an old time, is still followed");
    }

    @Test
    void aContainerMadeElsewhereIsCheckedForWhatWouldLoseDocumentsOrCostTooMuch() {
        try (com.azure.cosmos.CosmosClient admin = new com.azure.cosmos.CosmosClientBuilder()
                .endpoint(CosmosTestServer.running().endpoint()).key(CosmosTestServer.KEY).gatewayMode()
                .endpointDiscoveryEnabled(false).buildClient()) {
            admin.createDatabaseIfNotExists("hpcscale");
            com.azure.cosmos.models.CosmosContainerProperties expiring =
                    new com.azure.cosmos.models.CosmosContainerProperties("expiring", "/PoolName");
            expiring.setDefaultTimeToLiveInSeconds(3600);
            admin.getDatabase("hpcscale").createContainerIfNotExists(expiring);
            com.azure.cosmos.models.CosmosContainerProperties indexed =
                    new com.azure.cosmos.models.CosmosContainerProperties("indexed", "/PoolName");
            indexed.setDefaultTimeToLiveInSeconds(-1);
            admin.getDatabase("hpcscale").createContainerIfNotExists(indexed);
        }
        try (CosmosClusterLoadStore expiring = new CosmosClusterLoadStore(settings("expiring", false,
                Duration.ofSeconds(10)))) {
            StoreException e = assertThrows(StoreException.class, () -> expiring.read(new DocumentKey("a", "1")));
            assertTrue(e.getMessage().contains("expires every document after 3600 s") && e.getMessage().contains(
                    "the scaler's lease") && e.getMessage().contains("--name expiring --ttl -1"), e.getMessage());
        }
        try (CosmosClusterLoadStore indexed = new CosmosClusterLoadStore(settings("indexed", false,
                Duration.ofSeconds(10)))) {
            List<String> problems = indexed.setupProblems();
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).contains("indexes every property") && problems.get(0).contains("--idx"),
                    problems.get(0));
        }
        assertEquals(List.of(), store.setupProblems(), "a container hpcscale made indexes only what it queries");
    }

    @Test
    void checkNamesAnAccountThatTakesWritesInSeveralRegionsOrReadsWeakerThanSession() {
        try {
            CosmosTestServer.running().account("{\"writeRegions\":[\"West Europe\",\"North Europe\"],"
                    + "\"multipleWriteLocations\":true,\"defaultConsistencyLevel\":\"Eventual\"}");
            List<String> problems = store.setupProblems();
            assertEquals(2, problems.size(), problems.toString());
            assertTrue(problems.get(0).contains("accepts writes in 2 regions [West Europe, North Europe]")
                    && problems.get(0).contains("writes only to West Europe")
                    && problems.get(0).contains("--enable-multiple-write-locations false"), problems.get(0));
            assertTrue(problems.get(1).contains("the account's default consistency, Eventual,")
                    && problems.get(1).contains("--default-consistency-level Session"), problems.get(1));

            CosmosTestServer.running().account("{\"writeRegions\":[\"West Europe\"],"
                    + "\"multipleWriteLocations\":false,\"defaultConsistencyLevel\":\"BoundedStaleness\"}");
            assertEquals(List.of(), store.setupProblems(), "one write region, BoundedStaleness");
        } finally {
            CosmosTestServer.running().account(CosmosTestServer.ACCOUNT_RESET);
        }
    }

    @Test
    void anAccountThatCannotBeReadIsOneFindingAndTheContainerIsStillChecked() {
        store.read(new DocumentKey("a", "1"));
        CosmosTestServer.running().fault("{\"status\":403,\"count\":1,\"methods\":[\"GET\"],\"path\":\"/\"}");
        List<String> problems = store.setupProblems();
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("reading the account's settings answered 403")
                && problems.get(0).contains("may not read the account's metadata")
                && problems.get(0).contains("not checked"), problems.get(0));
        assertEquals(List.of(), store.setupProblems(), "read again once the account answers");
    }

    @Test
    void aPacedStoreSpreadsItsWritesWhereAnUnpacedOneSpendsThemInOneSecond() {
        CosmosSettings base = settings("paced-" + CONTAINERS.incrementAndGet(), true, Duration.ofSeconds(10));
        CosmosSettings paced = new CosmosSettings(base.endpoint(), base.database(), base.container(), base.key(),
                null, List.of(), null, true, false, base.requestTimeout(), 100);
        try (CosmosClusterLoadStore slow = new CosmosClusterLoadStore(paced)) {
            slow.read(new DocumentKey("a", "1"));
            store.read(new DocumentKey("a", "1"));
            CosmosTestServer.running().resetStats();
            store.upsertAll(documents("unpaced", 120));
            double unpaced = CosmosTestServer.running().stats().path("busiestSecondCharge").asDouble();
            CosmosTestServer.running().resetStats();
            slow.upsertAll(documents("paced", 60));
            double busiest = CosmosTestServer.running().stats().path("busiestSecondCharge").asDouble();
            double charged = CosmosTestServer.running().requestCharge();
            assertTrue(unpaced > 200, "120 documents unpaced: " + unpaced + " RU in their busiest second");
            assertTrue(charged > 300 && busiest <= 200, "60 documents paced to 100 RU/s: " + charged + " RU, "
                    + busiest + " in the busiest second");
        }
    }

    private static List<ObjectNode> documents(String prefix, int count) {
        List<ObjectNode> documents = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            documents.add(doc("jobs", "a", prefix + i, i));
        }
        return documents;
    }

    @Test
    void checkNamesAConsistencySettingWeakerThanSession() {
        CosmosSettings base = settings("consistency-" + CONTAINERS.incrementAndGet(), true, Duration.ofSeconds(10));
        CosmosSettings eventual = new CosmosSettings(base.endpoint(), base.database(), base.container(), base.key(),
                null, List.of(), com.azure.cosmos.ConsistencyLevel.EVENTUAL, true, false, base.requestTimeout(), 0);
        try (CosmosClusterLoadStore weak = new CosmosClusterLoadStore(eventual)) {
            List<String> problems = weak.setupProblems();
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).contains("store.cosmos.consistency = Eventual does not let a program read its "
                    + "own last write") && problems.get(0).contains("set it to Session"), problems.get(0));
        }
    }

    @Test
    void aClientWhoseStartUpHangsFailsTheCallWithinTheRequestTimeoutAndStartsLater() {
        CosmosTestServer.running().fault("{\"hang\":true,\"count\":1,\"kinds\":[\"other\"]}");
        try (CosmosClusterLoadStore starting = new CosmosClusterLoadStore(settings("slow-start", true,
                Duration.ofSeconds(2)))) {
            long began = System.nanoTime();
            StoreException e = assertThrows(StoreException.class, () -> starting.read(new DocumentKey("a", "1")));
            assertTrue(Duration.ofNanos(System.nanoTime() - began).toSeconds() < 5, "bounded by the request timeout");
            assertTrue(e.getMessage().contains("its client has been starting for"), e.getMessage());
            CosmosTestServer.running().clearFaults();
            Optional<StoredDocument> read = Optional.empty();
            for (int attempt = 0; attempt < 5 && read.isEmpty(); attempt++) {
                try {
                    starting.upsertAll(List.of(doc("jobs", "a", "1", 1)));
                    read = starting.read(new DocumentKey("a", "1"));
                } catch (StoreException again) {
                    read = Optional.empty();
                }
            }
            assertTrue(read.isPresent(), "the store works once the account answers");
        }
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
