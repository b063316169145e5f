package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.SqliteClusterLoadStore;
import io.hpcscale.common.store.StoredDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real agent, as its own process, against stand-in qstat and pbsnodes first on the PATH, writing to a real
 * SQLite file.
 */
class PbsAgentEndToEndTest {
    @TempDir
    Path dir;

    private StandInPbs pbs;
    private Path config;
    private SqliteClusterLoadStore store;
    private DocumentStore documents;

    @BeforeEach
    void setUp() throws IOException {
        pbs = new StandInPbs(dir.resolve("bin"));
        config = writeConfig("");
        store = new SqliteClusterLoadStore(dir.resolve("clusterload.db"), Duration.ofSeconds(10), Clock.systemUTC());
        documents = new DocumentStore(store);
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    private Path writeConfig(String extra) throws IOException {
        Path file = dir.resolve("hpcscale.properties");
        Files.writeString(file, """
                store.sqlite.path = %s
                agent.host = head
                agent.commandTimeout = 2s
                pool.pinta00.queue = pinta00
                pool.gpu.queue = gpuq
                %s
                """.formatted(dir.resolve("clusterload.db"), extra));
        return file;
    }

    private AgentProcess.Result once() throws Exception {
        return AgentProcess.run(pbs.directory(), "once", "--config", config.toString());
    }

    /** ETag of every job and vm document, by key: equal maps mean nothing was rewritten. */
    private Map<String, String> jobAndVmEtags() {
        Map<String, String> etags = new TreeMap<>();
        for (DocumentType type : List.of(DocumentType.JOBS, DocumentType.VMS)) {
            for (StoredDocument d : store.queryByType(type)) {
                etags.put(d.key().toString(), d.etag());
            }
        }
        return etags;
    }

    private AgentDocument heartbeat() {
        return documents.read(new DocumentKey("_meta", "agent-head-pbs"), AgentDocument.class).orElseThrow()
                .document();
    }

    private String heartbeatEtag() {
        return store.read(new DocumentKey("_meta", "agent-head-pbs")).orElseThrow().etag();
    }

    private VmDocument vm(String name) {
        return documents.read(new DocumentKey("pinta00", name), VmDocument.class).orElseThrow().document();
    }

    @Test
    void writesTheClusterThenOnlyTheHeartbeatWhenNothingChanged() throws Exception {
        AgentProcess.Result first = once();
        assertEquals(0, first.exitCode(), first.stdout() + first.stderr());
        assertTrue(first.stdout().contains("read 12 jobs and 6 nodes"), first.stdout());

        List<JobDocument> jobs = documents.all(DocumentType.JOBS, JobDocument.class);
        assertEquals(12, jobs.size());
        JobDocument gpuJob = documents.read(new DocumentKey("gpu", "4721.pbsserver"), JobDocument.class)
                .orElseThrow().document();
        assertEquals(JobState.Queued, gpuJob.status());
        assertEquals("gpuq", gpuJob.queueName());
        assertTrue(gpuJob.exclusive());
        assertTrue(documents.read(new DocumentKey("pinta00", "4720[3].pbsserver"), JobDocument.class).isPresent());
        assertEquals(List.of("gpu001", "pinta007y000001", "pinta007y000002", "pinta007y000003", "pinta007y000004"),
                documents.all(DocumentType.VMS, VmDocument.class).stream().map(VmDocument::name).sorted().toList(),
                "hpcnode03 serves queue 'normal', which no pool serves");
        assertFalse(vm("pinta007y000003").offline(), "offline by hpcscale with no drain asked: returned to service");
        assertTrue(pbs.calls().contains("pbsnodes -r -C returned to service by hpcscale pinta007y000003"),
                pbs.calls().toString());
        assertEquals("pbs", heartbeat().scheduler());

        Map<String, String> etags = jobAndVmEtags();
        String heartbeatEtag = heartbeatEtag();
        AgentProcess.Result second = once();
        assertEquals(0, second.exitCode(), second.stdout() + second.stderr());
        assertTrue(second.stdout().contains("0 documents written, 0 deleted, plus the heartbeat"), second.stdout());
        assertEquals(etags, jobAndVmEtags(), "no job or vm document was written again");
        assertNotEquals(heartbeatEtag, heartbeatEtag(), "the heartbeat was written");
    }

    @Test
    void aQueuesMaxRunHoldsBackTheJobsBeyondItWhichWaitWithTheReason() throws Exception {
        pbs.write("queues.json", Fixtures.text(Fixtures.CLOUD_QUEUES).replace("\"queue_type\":\"Execution\",",
                "\"queue_type\":\"Execution\", \"max_run\":\"[o:PBS_ALL=3]\","));
        AgentProcess.Result result = once();
        assertEquals(0, result.exitCode(), result.stdout() + result.stderr());

        Map<JobState, List<String>> pinta = documents.inPool(DocumentType.JOBS, "pinta00", JobDocument.class).stream()
                .collect(java.util.stream.Collectors.groupingBy(JobDocument::status, java.util.TreeMap::new,
                        java.util.stream.Collectors.mapping(JobDocument::schedulerId,
                                java.util.stream.Collectors.toList())));
        assertEquals(List.of("4716.pbsserver"), pinta.get(JobState.Queued),
                "two run, so one more may start: the first submitted");
        assertEquals(List.of("4717.pbsserver", "4720[2].pbsserver", "4720[3].pbsserver", "4720[4].pbsserver",
                "4722.pbsserver"), documents.inPool(DocumentType.JOBS, "pinta00", JobDocument.class).stream()
                        .filter(j -> j.waitingFor() != null && j.waitingFor().contains("max_run"))
                        .map(JobDocument::schedulerId).sorted().toList(),
                "the queued ones beyond the limit; 4723 (a dependency) and 4724 (a start time) waited already");
        JobDocument held = documents.read(new DocumentKey("pinta00", "4717.pbsserver"), JobDocument.class)
                .orElseThrow().document();
        assertEquals("queue pinta00's limit max_run = [o:PBS_ALL=3] is reached (3 jobs running or first in line)",
                held.waitingFor());
    }

    @Test
    void deletesTheDocumentOfAJobThatIsGone() throws Exception {
        assertEquals(0, once().exitCode());
        ObjectMapper json = new ObjectMapper();
        ObjectNode output = (ObjectNode) json.readTree(Fixtures.bytes(Fixtures.CLOUD_JOBS));
        ((ObjectNode) output.get("Jobs")).remove("4717.pbsserver");
        pbs.write("jobs-without-4717.json", json.writerWithDefaultPrettyPrinter().writeValueAsString(output));
        pbs.qstatPrints("jobs-without-4717.json");

        AgentProcess.Result second = once();
        assertTrue(second.stdout().contains("deleted pinta00/4717.pbsserver"), second.stdout());
        assertTrue(second.stdout().contains("0 documents written, 1 deleted"), second.stdout());
        assertEquals(11, store.queryByType(DocumentType.JOBS).size());
    }

    @Test
    void aFailingHangingOrGarbledQstatDeletesNothingAndRecordsTheError() throws Exception {
        assertEquals(0, once().exitCode());
        Map<String, String> etags = jobAndVmEtags();
        Map<String, Runnable> failures = new TreeMap<>();
        failures.put("exited with status 2: qstat: cannot connect to server pbsserver", () -> run(pbs::qstatFails));
        failures.put("did not finish within 2.0s and was killed", () -> run(pbs::qstatHangs));
        failures.put("printed output that cannot be read as JSON", () -> run(() -> pbs.qstatPrints("garbage.txt")));
        for (Map.Entry<String, Runnable> failure : failures.entrySet()) {
            failure.getValue().run();
            long begin = System.nanoTime();
            AgentProcess.Result result = once();
            assertEquals(1, result.exitCode(), result.stdout() + result.stderr());
            assertTrue(Duration.ofNanos(System.nanoTime() - begin).toSeconds() < 30, "the hang was cut short");
            assertTrue(result.stdout().contains("problem: ") && result.stdout().contains(failure.getKey()),
                    result.stdout());
            assertFalse(result.stderr().contains("\tat "), "no stack trace for an expected condition");
            assertEquals(etags, jobAndVmEtags(), "nothing written or deleted after: " + failure.getKey());
            assertTrue(heartbeat().lastError().contains(failure.getKey()), heartbeat().lastError());
        }
        pbs.qstatPrints("jobs.json");
        assertEquals(0, once().exitCode());
        assertEquals(null, heartbeat().lastError());
    }

    @Test
    void jobsOrNodesOfTheWrongJsonTypeDeleteNothingAndRecordTheError() throws Exception {
        assertEquals(0, once().exitCode());
        Map<String, String> etags = jobAndVmEtags();
        String header = "{\"timestamp\":1606173520,\"pbs_version\":\"2022.1.7\",\"pbs_server\":\"pbsserver\",";
        pbs.write("jobs-as-array.json", header + "\"Jobs\":[]}");
        pbs.qstatPrints("jobs-as-array.json");
        String nodes = Fixtures.text(Fixtures.NODES);
        for (String expected : List.of("\"Jobs\" should hold an object but holds an array",
                "\"nodes\" should hold an object but holds an array")) {
            AgentProcess.Result result = once();
            assertEquals(1, result.exitCode(), result.stdout() + result.stderr());
            assertTrue(result.stdout().contains("problem: ") && result.stdout().contains(expected), result.stdout());
            assertFalse(result.stderr().contains("\tat "), "no stack trace for an expected condition");
            assertEquals(etags, jobAndVmEtags(), "nothing written or deleted");
            assertTrue(heartbeat().lastError().contains(expected), heartbeat().lastError());
            pbs.qstatPrints("jobs.json");
            pbs.write("nodes.json", header + "\"nodes\":[]}");
        }
        pbs.write("nodes.json", nodes);
        assertEquals(0, once().exitCode());
        assertNull(heartbeat().lastError());
    }

    @Test
    void aBadJobOrNodeIsSkippedAndTheCycleCarriesOn() throws Exception {
        assertEquals(0, once().exitCode());
        pbs.write("jobs-with-bad-entries.json", Fixtures.text(Fixtures.CLOUD_JOBS).replaceFirst("\"Jobs\":\\{",
                "\"Jobs\":{\"\":{\"job_state\":\"Q\",\"queue\":\"pinta00\"}, \"9001.pbsserver\":5,"));
        pbs.qstatPrints("jobs-with-bad-entries.json");
        pbs.write("nodes.json", Fixtures.text(Fixtures.NODES)
                .replace("\"last_used_time\":1606160000", "\"last_used_time\":99999999999999999")
                .replaceFirst("\"nodes\":\\{", "\"nodes\":{\"\":{\"state\":\"free\"},"));
        AgentProcess.Result result = once();
        assertEquals(0, result.exitCode(), result.stdout() + result.stderr());
        assertTrue(result.stdout().contains("read 12 jobs and 6 nodes"), result.stdout());
        assertTrue(result.stderr().contains("skipping job 9001.pbsserver") && result.stderr().contains(
                "skipping node : it cannot be read (its name is empty)"), result.stderr());
        assertFalse(result.stderr().contains("\tat "), result.stderr());
        assertNull(heartbeat().lastError());
        assertEquals(12, store.queryByType(DocumentType.JOBS).size());
        assertTrue(vm("pinta007y000001").lastBusyAt().isBefore(Instant.now()),
                "a last_used_time beyond any date is taken as no time");
    }

    @Test
    void drainsARequestedNodeAndReturnsItWhenTheRequestIsWithdrawn() throws Exception {
        assertEquals(0, once().exitCode());
        Instant requestedAt = Instant.now();
        documents.upsert(List.of(DrainDocument.request("pinta00", "pinta007y000001", "idle 5m", requestedAt)));

        AgentProcess.Result drained = once();
        assertEquals(0, drained.exitCode(), drained.stdout() + drained.stderr());
        assertTrue(pbs.calls().contains("pbsnodes -o -C hpcscale: idle 5m pinta007y000001"), pbs.calls().toString());
        VmDocument offline = vm("pinta007y000001");
        assertTrue(offline.offline() && offline.offlineByHpcscale(), offline.toString());
        assertEquals(requestedAt, offline.drainRequestedAt());

        AgentProcess.Result next = once();
        assertTrue(next.stdout().contains("0 documents written"), next.stdout());
        assertTrue(vm("pinta007y000001").offline(), "the next cycle still reports it offline");

        documents.delete(List.of(new DocumentKey("pinta00", DrainDocument.idFor("pinta007y000001"))));
        AgentProcess.Result returned = once();
        assertTrue(returned.stdout().contains("online  pinta007y000001"), returned.stdout());
        assertTrue(pbs.calls().contains("pbsnodes -r -C returned to service by hpcscale pinta007y000001"));
        assertFalse(vm("pinta007y000001").offline());
    }

    @Test
    void neverReturnsANodeAnAdministratorTookOffline() throws Exception {
        assertEquals(0, once().exitCode());
        assertEquals(0, once().exitCode());
        assertTrue(pbs.calls().stream().noneMatch(c -> c.startsWith("pbsnodes -r") && c.endsWith("gpu001")));
        assertTrue(pbs.calls().stream().noneMatch(c -> c.startsWith("pbsnodes -o")));
    }

    @Test
    void aPoolWhoseQueuePbsLacksIsAWarningAtStartNamingTheQueuesThatExist() throws Exception {
        config = writeConfig("pool.render.queue = pinta0");
        AgentProcess.Result result = once();
        assertEquals(0, result.exitCode(), result.stdout() + result.stderr());
        assertTrue(result.stderr().contains("pool render serves queue 'pinta0' (pool.render.queue), which the "
                + "scheduler does not have: did you mean pinta00? Its queues: gpuq, pinta00."), result.stderr());
        assertFalse(result.stderr().contains("pool gpu serves"), result.stderr());
    }

    @Test
    void aMissingQstatNamesTheSettingToFix() throws Exception {
        config = writeConfig("agent.pbs.qstat = " + dir.resolve("no/such/qstat"));
        AgentProcess.Result result = once();
        assertEquals(1, result.exitCode());
        assertTrue(heartbeat().lastError().contains("(setting agent.pbs.qstat): no such file or directory"),
                heartbeat().lastError());
    }

    @Test
    void anInvalidConfigurationExitsWithEveryProblemNamed() throws Exception {
        config = writeConfig("agent.intervall = 2m\nagent.commandTimeout = soon");
        AgentProcess.Result result = once();
        assertEquals(2, result.exitCode());
        assertTrue(result.stderr().contains("unknown setting agent.intervall") && result.stderr().contains(
                "did you mean agent.interval?"), result.stderr());
        assertFalse(result.stderr().contains("\tat "), result.stderr());
    }

    @Test
    void printsTheStoredDocumentsWithTheirEtags() throws Exception {
        assertEquals(0, once().exitCode());
        AgentProcess.Result result = AgentProcess.run(pbs.directory(), "--config", config.toString(), "documents",
                "--type", "vms", "--pool", "pinta00");
        assertEquals(0, result.exitCode(), result.stderr());
        List<String> lines = result.stdout().lines().toList();
        assertEquals(4, lines.size(), result.stdout());
        ObjectNode first = (ObjectNode) new ObjectMapper().readTree(lines.get(0));
        assertEquals("vms", first.get("Type").asText());
        assertTrue(first.get("_etag").asText().length() > 2);
    }

    @Test
    void theServiceRunsCyclesAndStopsPromptlyOnSigterm() throws Exception {
        config = writeConfig("agent.interval = 1s");
        Process service = AgentProcess.start(pbs.directory(), "run", "--config", config.toString());
        try {
            Instant deadline = Instant.now().plusSeconds(60);
            while (store.queryByType(DocumentType.AGENTS).isEmpty()) {
                assertTrue(Instant.now().isBefore(deadline), "no heartbeat within 60 s");
                Thread.sleep(200);
            }
            Instant first = heartbeat().lastCycleAt();
            while (!heartbeat().lastCycleAt().isAfter(first)) {
                assertTrue(Instant.now().isBefore(deadline), "no second cycle within 60 s");
                Thread.sleep(200);
            }
            service.destroy();
            assertTrue(service.waitFor(10, java.util.concurrent.TimeUnit.SECONDS), "still running 10 s after SIGTERM");
            assertEquals(0, service.exitValue(), "a stop asked for is a clean exit");
        } finally {
            service.destroyForcibly();
        }
        assertEquals(12, store.queryByType(DocumentType.JOBS).size());
    }

    @Test
    void sigtermDuringASlowQstatLetsItFinishRecordsTheCycleAndExitsZero() throws Exception {
        pbs.qstatIsSlow();
        config = writeConfig("agent.interval = 1h");
        Process service = AgentProcess.start(pbs.directory(), "run", "--config", config.toString());
        try {
            Path began = pbs.directory().resolve("qstat.began");
            Instant deadline = Instant.now().plusSeconds(60);
            while (!Files.exists(began)) {
                assertTrue(Instant.now().isBefore(deadline), "qstat did not begin within 60 s");
                Thread.sleep(50);
            }
            Instant signalled = Instant.now();
            service.destroy();
            assertTrue(service.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "still running 30 s after SIGTERM");
            assertEquals(0, service.exitValue());
            assertTrue(Duration.between(signalled, Instant.now()).toMillis() >= 1000,
                    "it waited for qstat rather than killing it");
        } finally {
            service.destroyForcibly();
        }
        AgentDocument heartbeat = heartbeat();
        assertNull(heartbeat.lastError(), "the command in flight finished: no false error");
        assertEquals(heartbeat.lastCycleAt(), heartbeat.lastSuccessAt());
        assertEquals(12, store.queryByType(DocumentType.JOBS).size(), "what it read was written");
        assertTrue(ProcessHandle.allProcesses().noneMatch(p -> p.info().commandLine().orElse("")
                .contains(pbs.directory().toString())), "no stand-in command is left running");
    }

    @Test
    void answersVersionAndHelp() throws Exception {
        AgentProcess.Result version = AgentProcess.run(pbs.directory(), "--version");
        assertEquals(0, version.exitCode());
        assertTrue(version.stdout().startsWith("hpcscale-agent-pbs 0."), version.stdout());
        AgentProcess.Result help = AgentProcess.run(pbs.directory(), "--help");
        assertTrue(help.stdout().contains("run") && help.stdout().contains("once")
                && help.stdout().contains("documents") && help.stdout().contains("--config"), help.stdout());
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private static void run(IoAction action) {
        try {
            action.run();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
