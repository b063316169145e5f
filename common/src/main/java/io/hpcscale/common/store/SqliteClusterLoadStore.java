package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.codec.DocumentCodec;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * The embedded default store: one SQLite file in WAL mode, shared safely by an agent and a scaler running as separate
 * processes on one host. Writers take the write lock at the start of their transaction (BEGIN IMMEDIATE), wait up to
 * the busy timeout for it, and retry a few times when SQLite still answers BUSY.
 */
public final class SqliteClusterLoadStore implements ClusterLoadStore {
    private static final Logger log = LoggerFactory.getLogger(SqliteClusterLoadStore.class);
    private static final int SCHEMA_VERSION = 1;
    private static final int BUSY_ATTEMPTS = 5;
    private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");

    private final Path path;
    private final Duration busyTimeout;
    private final Clock clock;
    private final DocumentCodec codec = new DocumentCodec();
    private final UsageMeter meter = new UsageMeter();
    private final boolean readOnly;
    private boolean immutable;
    private Connection connection;

    public SqliteClusterLoadStore(Path path, Duration busyTimeout, Clock clock) {
        this(path, busyTimeout, clock, false);
    }

    private SqliteClusterLoadStore(Path path, Duration busyTimeout, Clock clock, boolean readOnly) {
        this.path = path;
        this.busyTimeout = busyTimeout;
        this.clock = clock;
        this.readOnly = readOnly;
        if (readOnly) {
            openExisting();
        } else {
            open();
        }
    }

    /**
     * The file as it is, for commands that only read: one that does not exist is an error rather than a new empty
     * store (which would show an empty cluster), and a user who may only read the file can use it.
     */
    public static SqliteClusterLoadStore readOnly(Path path, Duration busyTimeout, Clock clock) {
        return new SqliteClusterLoadStore(path, busyTimeout, clock, true);
    }

    @Override
    public synchronized void upsertAll(Collection<ObjectNode> documents) {
        if (documents.isEmpty()) {
            return;
        }
        List<Row> rows = documents.stream().map(this::row).toList();
        inTransaction("write " + rows.size() + " documents", c -> {
            try (PreparedStatement upsert = c.prepareStatement("""
                    INSERT INTO cluster_load (pool_name, id, type, body, etag, expires_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (pool_name, id) DO UPDATE SET
                      type = excluded.type, body = excluded.body, etag = excluded.etag,
                      expires_at = excluded.expires_at""")) {
                for (Row row : rows) {
                    row.bind(upsert, newEtag());
                    upsert.addBatch();
                }
                upsert.executeBatch();
            }
            return null;
        });
    }

    @Override
    public synchronized void deleteAll(Collection<DocumentKey> keys) {
        if (keys.isEmpty()) {
            return;
        }
        inTransaction("delete " + keys.size() + " documents", c -> {
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM cluster_load WHERE pool_name = ? AND id = ?")) {
                for (DocumentKey key : keys) {
                    delete.setString(1, key.poolName());
                    delete.setString(2, key.id());
                    delete.addBatch();
                }
                delete.executeBatch();
            }
            return null;
        });
    }

    @Override
    public synchronized Optional<StoredDocument> read(DocumentKey key) {
        return withRetry("read " + key, c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT body, etag FROM cluster_load WHERE pool_name = ? AND id = ? AND " + LIVE)) {
                select.setString(1, key.poolName());
                select.setString(2, key.id());
                select.setLong(3, clock.millis());
                List<StoredDocument> found = collect(select);
                return found.stream().findFirst();
            }
        });
    }

    @Override
    public synchronized List<StoredDocument> query(DocumentType type, String poolName) {
        return withRetry("query " + type.wireName() + " of pool " + poolName, c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT body, etag FROM cluster_load WHERE type = ? AND pool_name = ? AND " + LIVE
                            + " ORDER BY pool_name, id")) {
                select.setString(1, type.wireName());
                select.setString(2, poolName);
                select.setLong(3, clock.millis());
                return collect(select);
            }
        });
    }

    @Override
    public synchronized List<StoredDocument> queryPool(String poolName, Set<DocumentType> types) {
        List<String> names = types.stream().map(DocumentType::wireName).sorted().toList();
        return withRetry("read pool " + poolName, c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT body, etag FROM cluster_load WHERE pool_name = ? AND type IN ("
                            + String.join(", ", java.util.Collections.nCopies(names.size(), "?")) + ") AND " + LIVE
                            + " ORDER BY type, id")) {
                int index = 1;
                select.setString(index++, poolName);
                for (String name : names) {
                    select.setString(index++, name);
                }
                select.setLong(index, clock.millis());
                return collect(select);
            }
        });
    }

    @Override
    public StoreUsage usage() {
        return meter.usage();
    }

    @Override
    public synchronized List<StoredDocument> queryByType(DocumentType type) {
        return withRetry("query " + type.wireName(), c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT body, etag FROM cluster_load WHERE type = ? AND " + LIVE.replace("?", "?")
                            + " ORDER BY pool_name, id")) {
                select.setString(1, type.wireName());
                select.setLong(2, clock.millis());
                return collect(select);
            }
        });
    }

    @Override
    public synchronized String replaceIfMatch(ObjectNode document, String expectedEtag) {
        Row row = row(document);
        return inTransaction("replace " + row.key, c -> {
            String etag = newEtag();
            try (PreparedStatement update = c.prepareStatement("""
                    UPDATE cluster_load SET type = ?, body = ?, etag = ?, expires_at = ?
                    WHERE pool_name = ? AND id = ? AND etag = ? AND """ + LIVE)) {
                update.setString(1, row.type);
                update.setString(2, row.body);
                update.setString(3, etag);
                setExpiry(update, 4, row.expiresAt);
                update.setString(5, row.key.poolName());
                update.setString(6, row.key.id());
                update.setString(7, expectedEtag);
                update.setLong(8, clock.millis());
                if (update.executeUpdate() == 1) {
                    return etag;
                }
            }
            boolean exists = exists(c, row.key);
            throw new EtagConflictException(row.key, exists
                    ? "changed since it was read (ETag " + expectedEtag + " is stale)"
                    : "no longer exists");
        });
    }

    @Override
    public synchronized String create(ObjectNode document) {
        Row row = row(document);
        return inTransaction("create " + row.key, c -> {
            if (exists(c, row.key)) {
                throw new EtagConflictException(row.key, "already exists");
            }
            try (PreparedStatement purge = c.prepareStatement(
                    "DELETE FROM cluster_load WHERE pool_name = ? AND id = ?")) {
                purge.setString(1, row.key.poolName());
                purge.setString(2, row.key.id());
                purge.executeUpdate();
            }
            String etag = newEtag();
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO cluster_load (pool_name, id, type, body, etag, expires_at) VALUES (?, ?, ?, ?, ?, ?)")) {
                row.bind(insert, etag);
                insert.executeUpdate();
            }
            return etag;
        });
    }

    @Override
    public synchronized int purgeExpired() {
        return inTransaction("purge expired documents", c -> {
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM cluster_load WHERE expires_at IS NOT NULL AND expires_at <= ?")) {
                delete.setLong(1, clock.millis());
                return delete.executeUpdate();
            }
        });
    }

    @Override
    public String describe() {
        return "SQLite file " + path;
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                log.debug("closing {} failed: {}", path, e.getMessage());
            }
            connection = null;
        }
    }

    private static final String LIVE = "(expires_at IS NULL OR expires_at > ?)";

    private interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final class Row {
        final DocumentKey key;
        final String type;
        final String body;
        final Instant expiresAt;

        Row(ObjectNode json) {
            this.key = DocumentKeys.of(json);
            this.type = DocumentKeys.type(json);
            this.body = codec.toJson(json);
            this.expiresAt = Ttl.expiresAt(json, clock.instant());
        }

        void bind(PreparedStatement statement, String etag) throws SQLException {
            statement.setString(1, key.poolName());
            statement.setString(2, key.id());
            statement.setString(3, type);
            statement.setString(4, body);
            statement.setString(5, etag);
            setExpiry(statement, 6, expiresAt);
        }
    }

    private Row row(ObjectNode json) {
        return new Row(json);
    }

    private static void setExpiry(PreparedStatement statement, int index, Instant expiresAt) throws SQLException {
        if (expiresAt == null) {
            statement.setNull(index, java.sql.Types.INTEGER);
        } else {
            statement.setLong(index, expiresAt.toEpochMilli());
        }
    }

    /** Rows are parsed only when read: a reader that knows a version by its ETag skips the parse. */
    private List<StoredDocument> collect(PreparedStatement select) throws SQLException {
        List<StoredDocument> result = new ArrayList<>();
        try (ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                String body = rs.getString(1);
                result.add(StoredDocument.lazy(() -> codec.parse(body), rs.getString(2)));
            }
        }
        return result;
    }

    private boolean exists(Connection c, DocumentKey key) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT 1 FROM cluster_load WHERE pool_name = ? AND id = ? AND " + LIVE)) {
            select.setString(1, key.poolName());
            select.setString(2, key.id());
            select.setLong(3, clock.millis());
            try (ResultSet rs = select.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static String newEtag() {
        return "\"" + UUID.randomUUID() + "\"";
    }

    /**
     * Runs work in one transaction that holds the write lock from its start. Explicit BEGIN IMMEDIATE rather than
     * JDBC's autocommit switch: when BEGIN fails with BUSY, nothing is left half-switched and a retry starts clean.
     */
    private <T> T inTransaction(String what, Work<T> work) {
        return withRetry(what, c -> {
            try (Statement begin = c.createStatement()) {
                begin.execute("BEGIN IMMEDIATE");
            }
            try {
                T result = work.run(c);
                try (Statement commit = c.createStatement()) {
                    commit.execute("COMMIT");
                }
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            }
        });
    }

    private <T> T withRetry(String what, Work<T> work) {
        meter.request(0);
        SQLException last = null;
        for (int attempt = 1; attempt <= BUSY_ATTEMPTS; attempt++) {
            try {
                return work.run(connection());
            } catch (SQLException e) {
                last = e;
                if (!isBusy(e)) {
                    break;
                }
                log.debug("{} is busy ({}), attempt {} of {}", path, what, attempt, BUSY_ATTEMPTS);
                sleepBeforeRetry(attempt);
            }
        }
        if (isBusy(last)) {
            throw new StoreException("SQLite file " + path + " stayed locked by another process for longer than "
                    + "store.sqlite.busyTimeout (" + busyTimeout.toSeconds() + "s) × " + BUSY_ATTEMPTS
                    + " attempts while trying to " + what + "; is another program holding a long transaction?", last);
        }
        // Dropping the connection lets the next call reopen the file, so a store that comes back (disk freed,
        // permissions fixed) is used again without a restart.
        close();
        throw new StoreException("SQLite file " + path + " failed to " + what + ": " + message(last)
                + " (check store.sqlite.path, its directory's permissions and free disk space)", last);
    }

    private static boolean isBusy(SQLException e) {
        if (e instanceof SQLiteException sqlite) {
            SQLiteErrorCode code = sqlite.getResultCode();
            return code == SQLiteErrorCode.SQLITE_BUSY || code == SQLiteErrorCode.SQLITE_LOCKED
                    || code.name().startsWith("SQLITE_BUSY_") || code.name().startsWith("SQLITE_LOCKED_");
        }
        return false;
    }

    private static String message(SQLException e) {
        return e == null ? "unknown error" : e.getMessage();
    }

    private static void sleepBeforeRetry(int attempt) {
        try {
            Thread.sleep(20L * attempt * attempt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting for the SQLite write lock");
        }
    }

    private static void rollbackQuietly(Connection c) {
        try (Statement rollback = c.createStatement()) {
            rollback.execute("ROLLBACK");
        } catch (SQLException e) {
            log.debug("rollback failed: {}", e.getMessage());
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = connect();
        }
        return connection;
    }

    private void open() {
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
            }
            // Created here, before SQLite opens it, so that the file (and the WAL and shared-memory files SQLite
            // gives the same mode) is the service user's alone whatever the umask; an existing file keeps the mode
            // its administrator chose.
            if (!Files.exists(path)) {
                Files.createFile(path, PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE));
            }
        } catch (FileAlreadyExistsException e) {
            // Another process created it between the check and the creation: its mode is just as right.
        } catch (IOException e) {
            throw new StoreException("cannot create the SQLite file " + path + " or its directory ("
                    + e.getMessage() + "): create them, or set store.sqlite.path to a writable place", e);
        }
        try {
            connection = connect();
            createSchema(connection);
        } catch (SQLException e) {
            close();
            throw new StoreException("cannot open the SQLite file " + path + ": " + e.getMessage()
                    + " (check store.sqlite.path and its directory's permissions)", e);
        }
    }

    private void openExisting() {
        if (!Files.exists(path)) {
            throw new StoreException("the SQLite file " + path + " does not exist: no agent or scaler has written "
                    + "to it on this host yet, or store.sqlite.path (or --config) names another file");
        }
        try {
            try {
                connection = connect();
                checkSchema(connection);
            } catch (SQLException e) {
                // A user who may read the file but not write its directory cannot make the shared-memory file a
                // WAL reader needs. With no writer at work (no -wal file) the file is read as it stands, without
                // locks: a writer starting meanwhile could show this one read a moment's inconsistency, which a
                // command that only displays can afford. With a writer at work its -wal and -shm files serve, and
                // only a user who cannot read those is refused. Any other failure is reported as it is.
                if (!cannotMakeSharedMemory(e) || Files.exists(Path.of(path.toAbsolutePath() + "-wal"))) {
                    throw e;
                }
                close();
                immutable = true;
                connection = connect();
                checkSchema(connection);
            }
        } catch (SQLException e) {
            close();
            throw new StoreException("cannot read the SQLite file " + path + ": " + e.getMessage()
                    + " (check store.sqlite.path, and that this user may read the file and its directory)", e);
        }
    }

    private static boolean cannotMakeSharedMemory(SQLException e) {
        return e instanceof SQLiteException sqlite && switch (sqlite.getResultCode()) {
            case SQLITE_READONLY_DIRECTORY, SQLITE_READONLY_CANTINIT, SQLITE_READONLY_CANTLOCK, SQLITE_READONLY,
                    SQLITE_CANTOPEN -> true;
            default -> false;
        };
    }

    private static void checkSchema(Connection c) throws SQLException {
        try (Statement statement = c.createStatement();
                ResultSet rs = statement.executeQuery("PRAGMA user_version")) {
            int version = rs.next() ? rs.getInt(1) : 0;
            if (version != SCHEMA_VERSION) {
                throw new SQLException(version == 0 ? "it holds no hpcscale store"
                        : "it was written by another hpcscale (schema " + version + "); use that version");
            }
        }
    }

    private Connection connect() throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        if (readOnly) {
            // The WAL mode is the file's own; a read-only connection may not set it, only use it.
            config.setReadOnly(true);
            config.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, busyTimeout.toMillis()));
            return DriverManager.getConnection(immutable ? "jdbc:sqlite:file:" + path.toAbsolutePath()
                    + "?immutable=1" : "jdbc:sqlite:" + path.toAbsolutePath(), config.toProperties());
        }
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, busyTimeout.toMillis()));
        return DriverManager.getConnection("jdbc:sqlite:" + path.toAbsolutePath(), config.toProperties());
    }

    private void createSchema(Connection c) throws SQLException {
        try (Statement statement = c.createStatement()) {
            int version;
            try (ResultSet rs = statement.executeQuery("PRAGMA user_version")) {
                version = rs.next() ? rs.getInt(1) : 0;
            }
            if (version > SCHEMA_VERSION) {
                throw new SQLException("the file was written by a newer hpcscale (schema " + version
                        + "); upgrade this component");
            }
            if (version == SCHEMA_VERSION) {
                return;
            }
        }
        inTransaction("create the schema", tx -> {
            try (Statement statement = tx.createStatement()) {
                statement.execute("""
                        CREATE TABLE IF NOT EXISTS cluster_load (
                          pool_name  TEXT NOT NULL,
                          id         TEXT NOT NULL,
                          type       TEXT NOT NULL,
                          body       TEXT NOT NULL,
                          etag       TEXT NOT NULL,
                          expires_at INTEGER,
                          PRIMARY KEY (pool_name, id))""");
                statement.execute("CREATE INDEX IF NOT EXISTS cluster_load_by_type ON cluster_load (type, pool_name)");
                statement.execute("PRAGMA user_version = " + SCHEMA_VERSION);
            }
            return null;
        });
    }
}
