package io.hpcscale.common.store;

import io.hpcscale.common.config.Settings;
import java.nio.file.Path;
import java.time.Clock;

/** Opens the store named by {@code store.type}. */
public final class StoreFactory {
    private StoreFactory() {
    }

    public static ClusterLoadStore open(Settings settings, Clock clock) {
        String type = settings.string("store.type");
        return switch (type) {
            case "sqlite" -> new SqliteClusterLoadStore(Path.of(settings.string("store.sqlite.path")),
                    settings.duration("store.sqlite.busyTimeout"), clock);
            case "memory" -> new InMemoryClusterLoadStore(clock);
            case "cosmos" -> new CosmosClusterLoadStore(CosmosSettings.from(settings));
            default -> throw new IllegalStateException("store.type " + type + " passed validation but has no store");
        };
    }

    /**
     * The store as it is, for commands that only read (documents, status, events, usage): a SQLite file that does
     * not exist is an error, not a new empty store, and one the user may only read is enough.
     */
    public static ClusterLoadStore openForReading(Settings settings, Clock clock) {
        if ("sqlite".equals(settings.string("store.type"))) {
            return SqliteClusterLoadStore.readOnly(Path.of(settings.string("store.sqlite.path")),
                    settings.duration("store.sqlite.busyTimeout"), clock);
        }
        return open(settings, clock);
    }
}
