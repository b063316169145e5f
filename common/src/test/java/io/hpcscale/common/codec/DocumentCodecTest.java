package io.hpcscale.common.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.JobTimes;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.model.WaitReasonsDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DocumentCodecTest {
    private static final Instant T = Instant.parse("2026-11-22T10:15:30.123456789Z");
    private final DocumentCodec codec = new DocumentCodec();

    static JobDocument job() {
        return new JobDocument("4716.pbsserver", "pinta00", "4716.pbsserver", "pinta00", JobState.Queued, 2,
                List.of(new Chunk(2, 16, 32768, 0)), Placement.scatter, true, T, "agent-head-pbs");
    }

    /** A job that waits for something other than nodes, saying what. */
    static JobDocument waitingJob() {
        return new JobDocument("workload:team~2Ftrain", "gpu", "workload:team/train", "gpu", JobState.Waiting, 2,
                List.of(new Chunk(2, 8, 16384, 1)), Placement.free, false, T, "agent-head-k8s",
                "Kueue has not reserved quota for it in ClusterQueue team-gpu");
    }

    static JobDocument constrainedJob() {
        return new JobDocument("4720.pbsserver", "hb", "4720.pbsserver", "hbq", JobState.Queued, 8,
                List.of(new Chunk(8, 120, 400000, 0)), Placement.scatter, true, T, "agent-head-pbs", null,
                "[{\"infiniband\":true,\"scratch\":\"size::100g\"}]");
    }

    /** A running job that asked for two hours, as backfilling plans with it. */
    static JobDocument runningJob() {
        return new JobDocument("4721.pbsserver", "pinta00", "4721.pbsserver", "pinta00", JobState.Running, 1,
                List.of(new Chunk(1, 16, 0, 0)), Placement.free, false, T, "agent-head-pbs", null, null,
                new JobTimes(Duration.ofHours(2), T.plusSeconds(60)));
    }

    static VmDocument vm() {
        return new VmDocument("node1", "pinta00", "node1", NodeJobStatus.Busy, "job-busy", false, false, false, false, 16,
                16, 64000, 8192, 0, 0, List.of("4719.pbsserver"), T, T, null, "agent-head-pbs");
    }

    @Test
    void roundTripsEveryDocumentTheAgentsAndTheScalerExchange() {
        List<ClusterLoadDocument> documents = List.of(job(), waitingJob(), constrainedJob(), runningJob(), vm(),
                DrainDocument.request("pinta00", "node1", "idle 5m", T),
                new AgentDocument("agent-head-pbs", "pbs", "head", "0.1.0", T, 230, List.of("pinta00"), null, T),
                NoticeDocument.of("spot-7", "602d9444-d2cd-49c7-8624-8643e7171297", "Preempt", T.plusSeconds(30), "",
                        T).readyAt(T.plusSeconds(9)),
                NoticeDocument.of("spot-8", "EV-2", "LiveMigration", null, "a type this version does not know", T),
                HealthDocument.of("hb-7", HealthDocument.State.FAILED, "ERROR:  nhc:  Health check failed", T)
                        .heldAt(T.plusSeconds(20)),
                HealthDocument.of("hb-8", HealthDocument.State.PENDING, null, T),
                new WaitReasonsDocument("hc", "pool hc is at its max of 16 nodes", Map.of("12.pbs",
                        "pool hc cannot run it: it asks for 128 cpus")),
                WaitReasonsDocument.none("gpu"));
        for (ClusterLoadDocument document : documents) {
            ObjectNode json = codec.encode(document);
            assertEquals(1, json.get("SchemaVersion").asInt());
            assertEquals(document.type().wireName(), json.get("Type").asText());
            assertEquals(document, codec.decode(codec.parse(json.toString())));
        }
    }

    @Test
    void aNoticeLivesADayUnlessTheNodeWritesItAgain() {
        ObjectNode json = codec.encode(NoticeDocument.of("spot-7", "EV", "Terminate", T, "", T));
        assertEquals(86400, json.get("ttl").asLong());
        assertEquals("_meta", json.get("PoolName").asText(), "a node does not know its pool");
        assertEquals(NoticeDocument.Kind.OTHER, NoticeDocument.Kind.of("LiveMigration"));
    }

    @Test
    void whyJobsWaitNamesAtMostAHundredJobsWithShortReasons() {
        Map<String, String> many = new TreeMap<>();
        for (int i = 0; i < 300; i++) {
            many.put(i + ".pbs", "x".repeat(400));
        }
        WaitReasonsDocument reasons = new WaitReasonsDocument("hc", null, many);
        assertEquals(WaitReasonsDocument.MAX_JOBS, reasons.jobs().size());
        assertTrue(reasons.jobs().values().stream().allMatch(r -> r.length() == WaitReasonsDocument.MAX_REASON
                && r.endsWith("...")));
        assertTrue(codec.encode(reasons).toString().length() < 30_000, "a write stays a few tens of RU");
        assertEquals("AllocationFailed: no capacity. Retry later", new WaitReasonsDocument("hc",
                "AllocationFailed: no capacity.\n  Retry later\n", Map.of()).reason(), "one line, as comments show");
    }

    @Test
    void aJobsConstraintsAreTheJsonTextTheAgentWrote() {
        ObjectNode json = codec.encode(constrainedJob());
        assertEquals("[{\"infiniband\":true,\"scratch\":\"size::100g\"}]", json.get("Constraints").asText());
        assertEquals(null, codec.encode(job()).get("Constraints"), "a job asking nothing more has no field");
    }

    @Test
    void aJobsTimeLimitIsInSecondsAndAJobThatSaysNoneHasNoField() {
        ObjectNode json = codec.encode(runningJob());
        assertEquals(7200, json.get("TimeLimitSeconds").asLong());
        assertEquals(T.plusSeconds(60), ((JobDocument) codec.decode(json)).times().startedAt());
        assertEquals(null, codec.encode(job()).get("TimeLimitSeconds"));
        assertEquals(null, codec.encode(job()).get("StartedAt"));
        assertEquals(JobTimes.UNKNOWN, ((JobDocument) codec.decode(codec.encode(job()))).times());
        json.put("TimeLimitSeconds", -1);
        DocumentFormatException e = assertThrows(DocumentFormatException.class, () -> codec.decode(json));
        assertTrue(e.getMessage().contains("TimeLimitSeconds"), e.getMessage());
    }

    @Test
    void aResumedJobsEndAsItsSchedulerSaysItIsKeptAndIsItsExpectedEnd() {
        Instant later = T.plusSeconds(60).plus(Duration.ofHours(2)).plusSeconds(40);
        JobDocument resumed = new JobDocument("4721.pbsserver", "pinta00", "4721.pbsserver", "pinta00",
                JobState.Running, 1, List.of(new Chunk(1, 16, 0, 0)), Placement.free, false, T, "agent-head-pbs", null,
                null, new JobTimes(Duration.ofHours(2), T.plusSeconds(60), later));

        JobDocument read = (JobDocument) codec.decode(codec.encode(resumed));

        assertEquals(later, read.times().endsAt());
        assertEquals(later, read.times().expectedEnd(), "the scheduler's end, its suspension counted");
        assertEquals(null, codec.encode(runningJob()).get("EndsAt"), "a scheduler that says no end writes none");
        assertEquals(T.plusSeconds(60).plus(Duration.ofHours(2)), runningJob().times().expectedEnd(),
                "without it, start plus limit");
    }

    @Test
    void refusesADocumentOfAProgramWhoseModuleIsNotHereNamingIt() {
        ObjectNode json = codec.encode(job());
        json.put("Type", "scalerstate");
        DocumentFormatException e = assertThrows(DocumentFormatException.class, () -> codec.decode(json));
        assertTrue(e.getMessage().contains("a document of another program"), e.getMessage());
    }

    @Test
    void writesThePintaScalerFieldNames() {
        ObjectNode json = codec.encode(job());
        for (String field : List.of("id", "Type", "PoolName", "SchedulerId", "QueueName", "Status", "Nodes", "Chunks",
                "Placement", "Exclusive", "SubmittedAt", "Agent")) {
            assertTrue(json.has(field), field);
        }
        ObjectNode vm = codec.encode(vm());
        for (String field : List.of("Name", "JobStatus", "SchedulerState", "Offline", "OfflineByHpcscale", "Down",
                "CpusTotal", "CpusUsed", "MemoryMb", "Gpus", "JobIds", "LastBusyAt", "SeenAt")) {
            assertTrue(vm.has(field), field);
        }
    }

    @Test
    void readsNodesWrittenAsAString() {
        ObjectNode json = codec.encode(job());
        json.put("Nodes", "7");
        assertEquals(7, codec.decode(json, JobDocument.class).nodes());
    }

    @Test
    void readsAnUnknownStatusAsUnknown() {
        ObjectNode json = codec.encode(job());
        json.put("Status", "Exploded");
        assertEquals(JobState.Unknown, codec.decode(json, JobDocument.class).status());
    }

    @Test
    void namesTheDocumentAndFieldOfAMissingValue() {
        ObjectNode json = codec.encode(vm());
        json.remove("Name");
        DocumentFormatException e = assertThrows(DocumentFormatException.class, () -> codec.decode(json));
        assertEquals("vms document 'node1': field Name is missing", e.getMessage());
    }

    @Test
    void refusesDocumentsOfANewerSchema() {
        ObjectNode json = codec.encode(job());
        json.put("SchemaVersion", 2);
        DocumentFormatException e = assertThrows(DocumentFormatException.class, () -> codec.decode(json));
        assertTrue(e.getMessage().contains("newer hpcscale"), e.getMessage());
    }

    @Test
    void refusesANumberThatIsNotOne() {
        ObjectNode json = codec.encode(job());
        json.put("Nodes", "two");
        DocumentFormatException e = assertThrows(DocumentFormatException.class, () -> codec.decode(json));
        assertTrue(e.getMessage().contains("field Nodes is not a number: 'two'"), e.getMessage());
    }
}
