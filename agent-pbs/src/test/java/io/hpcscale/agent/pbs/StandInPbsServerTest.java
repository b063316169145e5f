package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.agent.pbs.StandInPbsServer.NodeSpec;
import io.hpcscale.agent.pbs.StandInPbsServer.Submission;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stand-in OpenPBS prints what the real one printed for the same scenario (fixtures/pbs/real, its README): the
 * tests that use it are only as good as this likeness.
 */
class StandInPbsServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private StandInPbs pbs;
    private StandInPbsServer server;

    @BeforeEach
    void tenNodesOfTwoCpus() throws IOException {
        pbs = new StandInPbs(dir.resolve("pbs"));
        server = new StandInPbsServer(pbs, dir.resolve("vms"), IntStream.rangeClosed(1, 4)
                .mapToObj(i -> new NodeSpec("cn00" + i, "workq", 2, 4 * 1024 * 1024, 0)).toList());
        for (int i = 1; i <= 4; i++) {
            server.powerOn("cn00" + i);
        }
        server.tick();
    }

    private JsonNode run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(pbs.directory().toFile()).start();
        byte[] out = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), new String(process.getErrorStream().readAllBytes()));
        return JSON.readTree(out);
    }

    private JsonNode jobs() throws IOException, InterruptedException {
        return run(pbs.directory().resolve("qstat").toString(), "-f", "-t", "-F", "json").path("Jobs");
    }

    private JsonNode nodes() throws IOException, InterruptedException {
        return run(pbs.directory().resolve("pbsnodes").toString(), "-a", "-F", "json").path("nodes");
    }

    @Test
    void placesAndPrintsJobsAsTheRealServerDid() throws Exception {
        String excl = server.submit(Submission.of("workq", "2:ncpus=1", "scatter:excl"));
        String chunks = server.submit(Submission.of("workq", "2:ncpus=1:mem=512mb", "free"));
        String array = server.submit(Submission.of("workq", "1:ncpus=1", "free").asArray(5));
        String held = server.submit(Submission.of("workq", "1:ncpus=2", "free").onHold());
        String waiting = server.submit(Submission.of("workq", "1:ncpus=1", "pack")
                .waitingUntil(Instant.now().plusSeconds(7200)));
        server.tick();
        JsonNode jobs = jobs();
        assertEquals("cn001/0+cn002/0", jobs.path(excl).path("exec_host").asText(), "5.vm of the real capture");
        assertEquals("cn003/0+cn003/1", jobs.path(chunks).path("exec_host").asText(), "6.vm: two chunks, one node");
        assertEquals("(cn003:ncpus=1:mem=524288kb)+(cn003:ncpus=1:mem=524288kb)",
                jobs.path(chunks).path("exec_vnode").asText());
        assertEquals("B", jobs.path(array).path("job_state").asText(), "array parent while subjobs run");
        assertTrue(jobs.path(array).path("array_state_count").isTextual());
        String firstSubjob = array.replace("[]", "[1]");
        assertEquals(array, jobs.path(firstSubjob).path("array_id").asText());
        assertFalse(jobs.path(array.replace("[]", "[5]")).has("array_id"), "a queued subjob has no array_id");
        assertEquals("H", jobs.path(held).path("job_state").asText());
        assertEquals("W", jobs.path(waiting).path("job_state").asText());
        assertTrue(jobs.path(excl).path("Resource_List").path("ncpus").isNumber());
        assertTrue(jobs.path(chunks).path("Resource_List").path("mem").isTextual());

        JsonNode nodes = nodes();
        assertEquals("job-exclusive", nodes.path("cn001").path("state").asText());
        assertEquals(1, nodes.path("cn001").path("resources_assigned").path("ncpus").asInt(), "one of two CPUs");
        assertEquals("job-busy", nodes.path("cn003").path("state").asText());
        assertEquals(List.of(chunks), List.of(nodes.path("cn003").path("jobs").get(0).asText()),
                "job ids without the /N slot, once per job, as 23.06 prints them");
    }

    @Test
    void aSuspendedJobFreesItsNodeInPbsnodesButKeepsItsExecHost() throws Exception {
        String job = server.submit(Submission.of("workq", "1:ncpus=1", "free"));
        server.tick();
        server.suspend(job);
        assertEquals("S", jobs().path(job).path("job_state").asText());
        assertEquals("cn001/0", jobs().path(job).path("exec_host").asText());
        JsonNode cn001 = nodes().path("cn001");
        assertEquals("free", cn001.path("state").asText());
        assertFalse(cn001.has("jobs"));
        assertEquals(0, cn001.path("resources_assigned").size(), "nothing assigned, as cn009 of the capture");
    }

    @Test
    void marksAndARestartBehaveAsOnTheRealServer() throws Exception {
        assertEquals(0, pbs.pbsnodes(null, "-o", "-C", "hpcscale: scale-down", "cn001").exitCode());
        String job = server.submit(Submission.of("workq", "1:ncpus=2", "free"));
        server.tick();
        assertEquals("cn002/0", jobs().path(job).path("exec_host").asText(), "no job on an offline node");
        assertEquals(0, pbs.pbsnodes(null, "-o", "cn002").exitCode());
        assertEquals("offline", nodes().path("cn001").path("state").asText(), "free becomes offline");
        assertEquals("offline,job-busy", nodes().path("cn002").path("state").asText(), "-o adds offline");
        assertEquals(0, pbs.pbsnodes(null, "-r", "cn001").exitCode());
        assertEquals("free", nodes().path("cn001").path("state").asText());
        assertEquals("hpcscale: scale-down", nodes().path("cn001").path("comment").asText(), "-r keeps the comment");
        assertEquals(0, pbs.pbsnodes(null, "-o", "-C", "x".repeat(100), "cn003").exitCode());
        assertEquals(79, nodes().path("cn003").path("comment").asText().length(), "-C keeps 79 characters");

        Files.delete(dir.resolve("vms/cn004"));
        server.tick();
        assertEquals("down", nodes().path("cn004").path("state").asText());
        assertEquals("node down: communication closed", nodes().path("cn004").path("comment").asText());

        server.serverStops();
        assertTrue(pbs.pbsnodes(null, "-o", "cn001").stderr().contains("cannot connect to server"));
        server.serverStarts();
        JsonNode restarted = nodes();
        assertEquals("state-unknown,down,offline", restarted.path("cn002").path("state").asText());
        assertFalse(restarted.path("cn001").has("comment"), "a restart drops every comment");
        assertFalse(restarted.path("cn003").has("comment"));
        server.settle();
        assertEquals("offline,job-busy", nodes().path("cn002").path("state").asText(), "offline stays");
    }

    @Test
    void anOperatorIsToldOfAnUnknownNodeAndAnyoneElseIsRefusedFirst() throws Exception {
        pbs.operators("hpcscale@*");
        StandInPbs.Run refused = pbs.pbsnodes("someone", "-o", "no-such-node");
        assertEquals(1, refused.exitCode());
        assertEquals("Error marking node no-such-node - Unauthorized Request\n", refused.stderr());
        StandInPbs.Run unknown = pbs.pbsnodes("hpcscale", "-o", "no-such-node");
        assertEquals("Error marking node no-such-node - Unknown node\n", unknown.stderr());
        assertTrue(pbs.pbsnodes("someone", "-o", "cn001").stderr().contains("Unauthorized Request"));
        assertFalse(pbs.offline("cn001"));
    }
}
