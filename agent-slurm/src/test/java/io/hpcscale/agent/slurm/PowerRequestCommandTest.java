package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Slurm's ResumeProgram and SuspendProgram: requests recorded per node and pool, nothing started. */
class PowerRequestCommandTest {
    @TempDir
    Path dir;

    @Test
    void recordsARequestPerNodeOfTheHostlistAndReportsNodesNoPoolServes() throws Exception {
        Files.writeString(dir.resolve("sinfo.json"), SlurmFixtures.text("sinfo-json_cloud-powered-down.json"));
        Path sinfo = dir.resolve("sinfo");
        Files.writeString(sinfo, "#!/bin/sh\ncat " + dir.resolve("sinfo.json") + "\n");
        Files.setPosixFilePermissions(sinfo, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path config = dir.resolve("hpcscale.properties");
        Files.write(config, List.of("store.sqlite.path = " + dir.resolve("db"), "agent.slurm.sinfo = " + sinfo,
                "agent.slurm.format = json", "pool.cloud.partition = cloud"));

        CommandLine commandLine = SlurmAgentMain.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int status = commandLine.execute("resume", "--config", config.toString(), "cnode[1-2],elsewhere9");

        assertEquals(1, status);
        assertTrue(out.toString().contains("resume requested for cnode1 in pool cloud"), out.toString());
        assertTrue(err.toString().contains("no pool serves elsewhere9"), err.toString());
        try (SqliteClusterLoadStore store = new SqliteClusterLoadStore(dir.resolve("db"), Duration.ofSeconds(5),
                Clock.systemUTC())) {
            List<PowerDocument> requests = new DocumentStore(store).all(DocumentType.POWER, PowerDocument.class);
            assertEquals(List.of("cnode1", "cnode2"), requests.stream().map(PowerDocument::name).sorted().toList());
            assertTrue(requests.stream().allMatch(r -> r.action() == PowerDocument.Action.resume
                    && r.poolName().equals("cloud")));
        }
    }
}
