package io.hpcscale.common.store;

import com.azure.cosmos.ConsistencyLevel;
import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.config.Settings;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * How to reach the ClusterLoad container in Azure Cosmos DB, from the {@code store.cosmos.*} settings.
 *
 * @param key                     the account key when {@code auth = key}, read from the key file; null for Entra ID
 * @param managedIdentityClientId a user-assigned managed identity's client id, or null for the system-assigned one
 * @param consistency             the level to read with, or null for the account's default
 * @param requestTimeout          bound on one operation, retries included, so a hung server cannot hold a cycle
 * @param requestUnitsPerSecond   the most this program spends in one second, paced by the SDK; 0 for no pacing
 */
public record CosmosSettings(String endpoint, String database, String container, String key,
        String managedIdentityClientId, List<String> preferredRegions, ConsistencyLevel consistency,
        boolean createIfMissing, boolean directMode, Duration requestTimeout, int requestUnitsPerSecond) {

    public CosmosSettings {
        preferredRegions = List.copyOf(preferredRegions);
    }

    /** @throws ConfigException naming the setting at fault and what to do */
    public static CosmosSettings from(Settings settings) {
        String endpoint = settings.optionalString("store.cosmos.endpoint").orElseThrow(() -> new ConfigException(
                "store.cosmos.endpoint is required when store.type = cosmos: the account's URI, e.g. "
                        + "https://myaccount.documents.azure.com:443/"));
        String key = null;
        if (settings.string("store.cosmos.auth").equals("key")) {
            key = readKey(settings.optionalString("store.cosmos.keyFile").map(Path::of).orElseThrow(
                    () -> new ConfigException("store.cosmos.keyFile is required when store.cosmos.auth = key: a file "
                            + "holding the account key, readable by the service user only (or use auth = aad)")));
        }
        List<String> regions = settings.optionalString("store.cosmos.preferredRegions")
                .map(text -> Arrays.stream(text.split(",")).map(String::strip).filter(r -> !r.isEmpty()).toList())
                .orElse(List.of());
        return new CosmosSettings(endpoint, settings.string("store.cosmos.database"),
                settings.string("store.cosmos.container"), key,
                settings.optionalString("store.cosmos.managedIdentityClientId").orElse(null), regions,
                settings.optionalString("store.cosmos.consistency").map(CosmosSettings::consistency).orElse(null),
                settings.bool("store.cosmos.createIfMissing"),
                settings.string("store.cosmos.connectionMode").equals("direct"),
                settings.duration("store.cosmos.requestTimeout"),
                settings.optionalInteger("store.cosmos.requestUnitsPerSecond").map(CosmosSettings::pace).orElse(0));
    }

    /** The catalog holds the floor (100: below it one page of a whole read waits longer than a request may). */
    private static int pace(long requestUnitsPerSecond) {
        if (requestUnitsPerSecond > 1_000_000) {
            throw new ConfigException("store.cosmos.requestUnitsPerSecond = " + requestUnitsPerSecond + " is more "
                    + "than a container can be given: give this program's share of the container's RU/s, or leave "
                    + "it unset for no pacing");
        }
        return (int) requestUnitsPerSecond;
    }

    private static ConsistencyLevel consistency(String name) {
        return switch (name) {
            case "Strong" -> ConsistencyLevel.STRONG;
            case "BoundedStaleness" -> ConsistencyLevel.BOUNDED_STALENESS;
            case "Session" -> ConsistencyLevel.SESSION;
            case "ConsistentPrefix" -> ConsistencyLevel.CONSISTENT_PREFIX;
            case "Eventual" -> ConsistencyLevel.EVENTUAL;
            default -> throw new ConfigException("store.cosmos.consistency = " + name + " is not a consistency level: "
                    + "use Strong, BoundedStaleness, Session, ConsistentPrefix or Eventual, or leave it unset");
        };
    }

    /** A key gives full access to the account: a file others can read is refused, not used. */
    static String readKey(Path file) {
        try {
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
            if (mode.contains(PosixFilePermission.GROUP_READ) || mode.contains(PosixFilePermission.OTHERS_READ)) {
                throw new ConfigException("store.cosmos.keyFile " + file + " is readable by other users (mode "
                        + PosixFilePermissions.toString(mode) + "): the key gives full access to the Cosmos DB "
                        + "account. Make it readable by the service user only: chmod 600 " + file);
            }
            String key = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (key.isEmpty()) {
                throw new ConfigException("store.cosmos.keyFile " + file + " is empty: put the account's primary or "
                        + "secondary key in it");
            }
            return key;
        } catch (IOException e) {
            throw new ConfigException("store.cosmos.keyFile " + file + " cannot be read (" + e.getMessage()
                    + "): it must exist and be readable by the service user");
        }
    }

    /**
     * Whether the endpoint is on this host: a local emulator or test server, which names no regions, so region
     * discovery must be off for it. On Azure it stays on, so that the client follows the account's regions and a
     * failover of its write region.
     */
    boolean localServer() {
        try {
            String host = URI.create(endpoint).getHost();
            return host != null && (host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]"));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** For messages: never the key. */
    String describe() {
        return "Cosmos DB container " + container + " of database " + database + " at " + endpoint;
    }
}
