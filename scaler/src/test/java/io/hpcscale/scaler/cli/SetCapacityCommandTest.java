package io.hpcscale.scaler.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.scaler.documents.PoolTargetDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code set-capacity} for a pool whose count lives in the store (no resource-group tag to hold it). */
class SetCapacityCommandTest {
    @TempDir
    Path dir;

    private Path config() throws Exception {
        Path config = dir.resolve("hpcscale.properties");
        Files.write(config, List.of(
                "store.sqlite.path = " + dir.resolve("clusterload.db"),
                "pool.rack.provider = simulated",
                "pool.rack.target = fixed",
                "pool.rack.min = 1",
                "pool.rack.max = 8",
                "pool.rack.cpus = 16",
                "pool.rack.memoryMb = 65536",
                "pool.jobs.provider = simulated",
                "pool.jobs.max = 4",
                "pool.jobs.cpus = 16",
                "pool.jobs.memoryMb = 65536"));
        return config;
    }

    private int stored() {
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(dir.resolve("clusterload.db"),
                Duration.ofSeconds(5), Clock.systemUTC())) {
            return new DocumentStore(store).read(PoolTargetDocument.keyFor("rack"), PoolTargetDocument.class)
                    .orElseThrow().document().target();
        }
    }

    @Test
    void writesTheCountToTheStoreAndSaysWhatItWas() throws Exception {
        Path config = config();
        ScalerCommandLine.Run first = ScalerCommandLine.run("set-capacity", "rack", "5", "--config", config.toString());
        assertEquals(0, first.code(), first.output());
        assertTrue(first.output().contains("target unset -> 5"), first.output());
        assertEquals(5, stored());

        ScalerCommandLine.Run lower = ScalerCommandLine.run("set-capacity", "rack", "0", "--config", config.toString());
        assertTrue(lower.output().contains("target 5 -> 0"), lower.output());
        assertTrue(lower.output().contains("pool.rack.min is 1"), "it says min still holds: " + lower.output());
        assertEquals(0, stored());
    }

    @Test
    void refusesAPoolWhoseJobsDecide() throws Exception {
        ScalerCommandLine.Run demand = ScalerCommandLine.run("set-capacity", "jobs", "3", "--config", config().toString());
        assertEquals(1, demand.code());
        assertTrue(demand.output().contains("pool jobs has target = demand"), demand.output());
    }
}
