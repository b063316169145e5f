package io.hpcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.common.store.StoredDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scaler process whose power command carries secrets on its command line, and fails printing more on stderr:
 * nothing it logs, stores, prints in status or events, or shows in --help holds any of them.
 */
class SecretsNeverLeakTest {
    private static final List<String> SECRETS = List.of("hunter2-SECRET-ONE", "tok-SECRET-TWO", "ipmi-SECRET-THREE",
            "AccSECRETFOUR", "sigSECRETFIVE");

    @TempDir
    Path dir;

    private String run(String... args) throws Exception {
        Path log = dir.resolve("out-" + System.nanoTime() + ".log");
        Process process = ScalerProcess.start(log, args);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "finished");
        return Files.readString(log);
    }

    @Test
    void noSecretOfACommandLineOrItsStderrReachesLogsDocumentsStatusEventsOrHelp() throws Exception {
        Path power = Files.createDirectories(dir.resolve("power"));
        Path list = power.resolve("power-list");
        Files.writeString(list, "#!/bin/sh\necho 'vm1 node1 stopped'\n");
        Path on = power.resolve("power-on");
        Files.writeString(on, "#!/bin/sh\necho \"login to $3 refused; AccountKey=AccSECRETFOUR; "
                + "https://bmc/api?sig=sigSECRETFIVE&sv=1\" >&2\nexit 1\n");
        for (Path script : List.of(list, on)) {
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path db = dir.resolve("clusterload.db");
        Path config = Files.write(dir.resolve("hpcscale.properties"), List.of(
                "store.sqlite.path = " + db,
                "command.secretOptions = -P",
                "pool.rack.provider = command",
                "pool.rack.cpus = 4",
                "pool.rack.memoryMb = 1000",
                "pool.rack.max = 1",
                "pool.rack.command.list = " + list,
                "pool.rack.command.start = " + on + " --password hunter2-SECRET-ONE -P ipmi-SECRET-THREE "
                        + "--token=tok-SECRET-TWO {instance}",
                "pool.rack.command.stop = " + on + " {instance}"));
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(db, Duration.ofSeconds(10),
                Clock.systemUTC())) {
            FakeAgent agent = new FakeAgent(new DocumentStore(store),
                    new PowerScripts(Files.createDirectories(dir.resolve("agent-view")), 1), "rack", 1);
            agent.jobs(1);
            agent.step();
        }

        List<String> produced = new ArrayList<>();
        String once = run("once", "--config", config.toString());
        produced.add(once);
        assertTrue(once.contains("--password [redacted]") && once.contains("-P [redacted]"),
                "the failed start is recorded, with its command shown: " + once);
        produced.add(run("status", "--config", config.toString()));
        produced.add(run("status", "--json", "--config", config.toString()));
        produced.add(run("events", "--since", "1h", "--config", config.toString()));
        produced.add(run("events", "--json", "--since", "1h", "--config", config.toString()));
        produced.add(run("--help"));
        produced.add(run("once", "--help"));
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(db, Duration.ofSeconds(10),
                Clock.systemUTC())) {
            for (DocumentType type : DocumentType.values()) {
                store.queryByType(type).stream().map(StoredDocument::json).map(Object::toString)
                        .forEach(produced::add);
            }
        }
        String everything = String.join("\n", produced);
        assertTrue(everything.contains("exited with status 1"), everything);
        for (String secret : SECRETS) {
            assertFalse(everything.contains(secret), secret + " leaked:\n" + everything);
        }
        assertTrue(everything.contains("\"Type\":\"events\""), "the events were read back: " + everything);
    }
}
