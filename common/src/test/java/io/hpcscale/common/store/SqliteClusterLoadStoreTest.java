package io.hpcscale.common.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteClusterLoadStoreTest extends ClusterLoadStoreContract {
    @TempDir
    Path dir;

    @Override
    protected ClusterLoadStore newStore(Clock clock) {
        return new SqliteClusterLoadStore(dir.resolve("nested/clusterload.db"), Duration.ofSeconds(5), clock);
    }

    @Test
    void createsItsDirectoryAndSchemaInWalMode() throws Exception {
        Path file = dir.resolve("nested/clusterload.db");
        assertTrue(Files.exists(file));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
            rs.next();
            assertEquals("wal", rs.getString(1));
        }
    }

    @Test
    void createsTheFileAndItsDirectoryReadableByTheServiceUserOnly() throws Exception {
        store.upsertAll(List.of(doc("jobs", "a", "1", 1)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("nested"))));
        try (var files = Files.list(dir.resolve("nested"))) {
            for (Path file : files.toList()) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
                        file.getFileName().toString());
            }
        }
    }

    @Test
    void keepsTheModeAnAdministratorGaveAnExistingFile() throws Exception {
        store.close();
        Path file = dir.resolve("nested/clusterload.db");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        store = newStore(clock);
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void aReadOnlyStoreRefusesAFileThatDoesNotExistAndCreatesNothing() {
        Path missing = dir.resolve("elsewhere/clusterload.db");
        StoreException e = assertThrows(StoreException.class,
                () -> SqliteClusterLoadStore.readOnly(missing, Duration.ofSeconds(1), clock));
        assertTrue(e.getMessage().contains("does not exist: no agent or scaler has written to it"), e.getMessage());
        assertTrue(!Files.exists(missing.getParent()), "no directory or empty store made");
    }

    @Test
    void aReadOnlyStoreReadsWhatTheWriterWroteAndWritesNothing() {
        store.upsertAll(List.of(doc("jobs", "a", "1", 1)));
        try (SqliteClusterLoadStore reader = SqliteClusterLoadStore.readOnly(dir.resolve("nested/clusterload.db"),
                Duration.ofSeconds(1), clock)) {
            assertEquals(1, reader.queryByType(DocumentType.JOBS).size());
            assertThrows(StoreException.class, () -> reader.upsertAll(List.of(doc("jobs", "a", "2", 1))));
        }
        assertEquals(1, store.queryByType(DocumentType.JOBS).size());
    }

    @Test
    void keepsDocumentsAcrossReopening() {
        store.upsertAll(List.of(doc("jobs", "a", "1", 1)));
        store.close();
        store = newStore(clock);
        assertEquals(1, store.queryByType(DocumentType.JOBS).size());
    }

    @Test
    void purgesExpiredDocuments() {
        var event = doc("events", "a", "e1", 1);
        event.put("ttl", 1);
        store.upsertAll(List.of(event));
        clock.advance(Duration.ofSeconds(2));
        assertEquals(1, store.purgeExpired());
        assertTrue(store.read(new DocumentKey("a", "e1")).isEmpty());
    }

    @Test
    void explainsAPathThatIsADirectory() {
        StoreException e = assertThrows(StoreException.class,
                () -> new SqliteClusterLoadStore(dir, Duration.ofSeconds(1), clock));
        assertTrue(e.getMessage().contains("store.sqlite.path") && e.getMessage().contains(dir.toString()),
                e.getMessage());
    }
}
