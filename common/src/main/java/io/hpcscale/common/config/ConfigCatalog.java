package io.hpcscale.common.config;

import static io.hpcscale.common.config.Component.PBS_AGENT;
import static io.hpcscale.common.config.Component.SCALER;
import static io.hpcscale.common.config.Component.SLURM_AGENT;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every key of the one properties file, for every program. Each program validates the whole file against this
 * catalog, so a typo is reported by whichever service starts first, the same way on every host.
 */
public final class ConfigCatalog {
    private static final Set<Component> AGENTS = EnumSet.of(PBS_AGENT, SLURM_AGENT);
    private static final Set<Component> ALL = EnumSet.allOf(Component.class);

    private final List<ConfigKey> keys;

    private ConfigCatalog(List<ConfigKey> keys) {
        this.keys = Collections.unmodifiableList(keys);
    }

    public static ConfigCatalog standard() {
        List<ConfigKey> keys = new ArrayList<>();
        keys.add(key("store.type", ValueKind.CHOICE, "sqlite", ALL)
                .choices("sqlite", "memory")
                .describe("Where the ClusterLoad documents live: sqlite (one file shared by agent and scaler on one "
                        + "host) or memory (tests and trials only: nothing is kept, nothing is shared).")
                .build());
        keys.add(key("store.sqlite.path", ValueKind.PATH, "/var/lib/hpcscale/clusterload.db", ALL)
                .describe("The SQLite file. Agent and scaler must name the same file. Its directory is created "
                        + "if missing.")
                .build());
        keys.add(key("store.sqlite.busyTimeout", ValueKind.DURATION, "10s", ALL).minimumMillis(1)
                .describe("How long a write waits for another process holding the SQLite write lock before "
                        + "retrying.")
                .build());
        keys.add(key("log.level", ValueKind.CHOICE, "info", ALL)
                .choices("error", "warn", "info", "debug", "trace")
                .describe("How much the programs log. info logs one line per decision.")
                .build());

        keys.add(key("agent.interval", ValueKind.DURATION, "120s", AGENTS).minimumMillis(1000)
                .describe("Time between two agent cycles (read the scheduler, write what changed, carry out "
                        + "drains).")
                .build());
        keys.add(key("agent.commandTimeout", ValueKind.DURATION, "60s", AGENTS).minimumMillis(100)
                .describe("Bound on one scheduler command. A command that runs longer is killed and the cycle "
                        + "writes only the heartbeat, with the error.")
                .build());
        keys.add(key("agent.commandMaxOutput", ValueKind.SIZE, "512MB", AGENTS).minimum(1024)
                .describe("Largest output kept from one scheduler command. Larger output fails the cycle "
                        + "rather than exhausting memory.")
                .build());
        keys.add(key("agent.host", ValueKind.STRING, null, AGENTS).defaultMeaning("this host's name")
                .describe("Name of this agent's host in its heartbeat document id (agent-<host>-<scheduler>).")
                .build());

        keys.add(key("agent.pbs.qstat", ValueKind.STRING, "qstat", Set.of(PBS_AGENT))
                .describe("The qstat command: a name on the PATH or a full path, e.g. /opt/pbs/bin/qstat.")
                .build());
        keys.add(key("agent.pbs.pbsnodes", ValueKind.STRING, "pbsnodes", Set.of(PBS_AGENT))
                .describe("The pbsnodes command: a name on the PATH or a full path, e.g. /opt/pbs/bin/pbsnodes.")
                .build());

        keys.add(key("pool.<name>.queue", ValueKind.STRING, "<name>", Set.of(PBS_AGENT))
                .describe("The PBS queue whose jobs this pool serves. Each queue maps to at most one pool.")
                .build());
        keys.add(key("pool.<name>.nodePattern", ValueKind.REGEX, null, AGENTS).defaultMeaning("none")
                .describe("Regular expression for the names of nodes that belong to the pool, used when the "
                        + "scheduler does not say (PBS: no queue attribute and no Qlist).")
                .build());
        return new ConfigCatalog(keys);
    }

    public List<ConfigKey> keys() {
        return keys;
    }

    public Optional<ConfigKey> find(String key) {
        return keys.stream().filter(k -> k.matches(key)).findFirst();
    }

    public ConfigKey require(String key) {
        return find(key).orElseThrow(() -> new IllegalArgumentException("no such setting in the catalog: " + key));
    }

    public List<ConfigKey> poolKeys() {
        return keys.stream().filter(ConfigKey::isPoolKey).toList();
    }

    private static Builder key(String pattern, ValueKind kind, String defaultValue, Set<Component> usedBy) {
        return new Builder(pattern, kind, defaultValue, usedBy);
    }

    private static final class Builder {
        private final String pattern;
        private final ValueKind kind;
        private final String defaultValue;
        private final Set<Component> usedBy;
        private String defaultMeaning;
        private List<String> choices = List.of();
        private Long minimum;
        private String description = "";
        private Set<Component> requiredBy = Set.of();

        Builder(String pattern, ValueKind kind, String defaultValue, Set<Component> usedBy) {
            this.pattern = pattern;
            this.kind = kind;
            this.defaultValue = defaultValue;
            this.usedBy = usedBy;
        }

        Builder choices(String... values) {
            choices = List.of(values);
            return this;
        }

        Builder minimum(long value) {
            minimum = value;
            return this;
        }

        Builder minimumMillis(long millis) {
            minimum = millis;
            return this;
        }

        Builder defaultMeaning(String meaning) {
            defaultMeaning = meaning;
            return this;
        }

        Builder requiredBy(Component... components) {
            requiredBy = Set.of(components);
            return this;
        }

        Builder describe(String text) {
            description = text;
            return this;
        }

        ConfigKey build() {
            return new ConfigKey(pattern, kind, defaultValue, defaultMeaning, choices, minimum, description, usedBy,
                    requiredBy);
        }
    }
}
