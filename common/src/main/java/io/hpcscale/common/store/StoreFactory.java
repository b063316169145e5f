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
}
