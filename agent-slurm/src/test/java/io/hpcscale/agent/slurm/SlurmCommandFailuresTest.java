package io.hpcscale.agent.slurm;

import static io.hpcscale.agent.slurm.SlurmFixtures.STEADY;
import static io.hpcscale.agent.slurm.SlurmFixtures.moment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.Agent;
import io.hpcscale.common.agent.CycleReport;
import io.hpcscale.common.agent.PoolMap;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.ZtExecCommandRunner;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * squeue and sinfo run for real: one that is missing, hangs or prints a list of the wrong type fails the cycle with a
 * clear error and deletes nothing; one bad entry is skipped and the cycle carries on.
 */
class SlurmCommandFailuresTest {
    @TempDir
    Path dir;

    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-22T10:00:00Z"));
    private final InMemoryClusterLoadStore store = new InMemoryClusterLoadStore(clock);

    private Path standIn(String name, String body) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private Agent agent(String squeue) throws IOException {
        Files.writeString(dir.resolve("squeue.json"), moment(STEADY, "squeue-json", ".json"));
        Files.writeString(dir.resolve("sinfo.json"), moment(STEADY, "sinfo-json", ".json"));
        Path sinfo = standIn("sinfo", "cat " + dir.resolve("sinfo.json"));
        CommandLimits limits = new CommandLimits(Duration.ofSeconds(1), "agent.commandTimeout", 64 << 20,
                "agent.commandMaxOutput");
        SlurmAdapter adapter = new SlurmAdapter(new ZtExecCommandRunner(), new SlurmCommands(squeue, sinfo.toString(),
                "scontrol", "sdiag", null, limits), SlurmAdapter.Format.JSON, ZoneOffset.UTC);
        return new Agent(adapter, new DocumentStore(store),
                new PoolMap(Map.of("batch", "batch", "debug", "debug", "cloud", "cloud"), Map.of()), "head", "t");
    }

    @Test
    void aMissingSqueueNamesItsSettingAndDeletesNothing() throws Exception {
        Path squeue = standIn("squeue", "cat " + dir.resolve("squeue.json"));
        assertTrue(agent(squeue.toString()).runOnce(clock.instant()).succeeded());
        int documents = store.queryByType(DocumentType.JOBS).size();
        assertEquals(19, documents);

        CycleReport failed = agent(dir.resolve("no/squeue").toString()).runOnce(clock.instant().plusSeconds(120));
        assertFalse(failed.succeeded());
        assertTrue(failed.error().contains("(setting agent.slurm.squeue): no such file or directory"),
                failed.error());
        assertEquals(documents, store.queryByType(DocumentType.JOBS).size());
        assertEquals(0, store.documentsDeleted());
    }

    @Test
    void jobsOrNodesThatAreNotAListDeleteNothingAndSaySo() throws Exception {
        Path squeue = standIn("squeue", "cat " + dir.resolve("squeue.json"));
        Agent agent = agent(squeue.toString());
        assertTrue(agent.runOnce(clock.instant()).succeeded());
        String steady = moment(STEADY, "squeue-json", ".json");
        String jobsAsObject = steady.substring(0, steady.indexOf("\"jobs\"")) + "\"jobs\": {}\n}\n";
        Files.writeString(dir.resolve("squeue.json"), jobsAsObject);
        CycleReport jobs = agent.runOnce(clock.instant().plusSeconds(120));
        assertFalse(jobs.succeeded());
        assertTrue(jobs.error().contains("`" + squeue + " --json` printed output that cannot be read as JSON: \"jobs\" "
                + "should hold an array but holds an object"), jobs.error());

        Files.writeString(dir.resolve("squeue.json"), steady);
        String sinfo = moment(STEADY, "sinfo-json", ".json");
        Files.writeString(dir.resolve("sinfo.json"),
                sinfo.substring(0, sinfo.indexOf("\"nodes\"")) + "\"nodes\": null}");
        CycleReport nodes = agent.runOnce(clock.instant().plusSeconds(240));
        assertTrue(nodes.error().contains("\"nodes\" should hold an array but holds null"), nodes.error());
        assertEquals(19, store.queryByType(DocumentType.JOBS).size());
        assertEquals(0, store.documentsDeleted());
    }

    @Test
    void aBadJobOrNodeIsSkippedAndTheCycleCarriesOn() throws Exception {
        Path squeue = standIn("squeue", "cat " + dir.resolve("squeue.json"));
        Agent agent = agent(squeue.toString());
        Files.writeString(dir.resolve("squeue.json"), moment(STEADY, "squeue-json", ".json").replaceFirst(
                "\"jobs\": \\[", "\"jobs\": [5, {\"job_id\": \"\", \"job_state\": \"PENDING\"}, {\"job_id\": 99, "
                        + "\"job_state\": \"PENDING\", \"partition\": \"batch\", "
                        + "\"submit_time\": 99999999999999999},"));
        String sinfo = moment(STEADY, "sinfo-json", ".json");
        Files.writeString(dir.resolve("sinfo.json"), sinfo.replaceFirst("\"nodes\": \\[",
                "\"nodes\": [{\"name\": \"\", \"state\": \"idle\"}, [], "));
        CycleReport report = agent.runOnce(clock.instant());
        assertTrue(report.succeeded() && report.problems().isEmpty(), report.error());
        assertEquals(20, report.jobsRead(), "the 19 jobs and job 99, whose submit time is no time");
        assertEquals(8, report.nodesRead());
        assertEquals(20, store.queryByType(DocumentType.JOBS).size());
    }

    @Test
    void aHangingSqueueIsKilledAtTheTimeoutAndDeletesNothing() throws Exception {
        Path squeue = standIn("squeue", "cat " + dir.resolve("squeue.json"));
        Agent agent = agent(squeue.toString());
        assertTrue(agent.runOnce(clock.instant()).succeeded());
        standIn("squeue", "exec sleep 300");
        long begin = System.nanoTime();
        CycleReport failed = agent.runOnce(clock.instant().plusSeconds(120));
        assertTrue(Duration.ofNanos(System.nanoTime() - begin).toSeconds() < 10);
        assertTrue(failed.error().contains("did not finish within 1.0s and was killed")
                && failed.error().contains("agent.commandTimeout"), failed.error());
        assertEquals(19, store.queryByType(DocumentType.JOBS).size());
        assertEquals(0, store.documentsDeleted());
    }
}
