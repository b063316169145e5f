package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.json.JsonMembers;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every PBS fixture, read the way the agent reads it. */
class PbsFixturesTest {
    private final PbsOutputParser parser = new PbsOutputParser(ZoneOffset.UTC);

    private static InputStream stream(byte[] output) {
        return new ByteArrayInputStream(output);
    }

    private static InputStream stream(String output) {
        return stream(output.getBytes(StandardCharsets.UTF_8));
    }

    private PbsOutputParser.Nodes nodes() throws Exception {
        return nodesOf(Fixtures.text(Fixtures.NODES));
    }

    private PbsOutputParser.Nodes nodesOf(String text) throws Exception {
        return parser.nodes(stream(text), "pbsnodes -a -F json").orElseThrow();
    }

    private Set<String> stoppedQueues(String fixture) throws Exception {
        return parser.queues(stream(Fixtures.bytes(fixture)), "qstat -Q -f -F json").stream()
                .filter(PbsQueue::stopped).map(PbsQueue::name).collect(Collectors.toSet());
    }

    private Map<String, SchedulerJob> cloudJobs() throws Exception {
        PbsQueues queues = new PbsQueues(stoppedQueues(Fixtures.CLOUD_QUEUES), nodes().sharing());
        PbsOutputParser.Jobs jobs = parser.jobs(stream(Fixtures.bytes(Fixtures.CLOUD_JOBS)), "qstat", queues);
        assertTrue(jobs.unreadable().isEmpty());
        return jobs.jobs().stream().collect(Collectors.toMap(SchedulerJob::id, Function.identity()));
    }

    private static PbsOutputParser.Jobs jobsOf(PbsOutputParser parser, String text) throws Exception {
        return parser.jobs(stream(text), "qstat -f -t -F json", new PbsQueues(Set.of(), QueueSharing.none()));
    }

    @Test
    void readsEveryKindOfJobOfTheCloudCluster() throws Exception {
        Map<String, SchedulerJob> jobs = cloudJobs();
        assertEquals(Set.of("4716.pbsserver", "4717.pbsserver", "4718.pbsserver", "4719.pbsserver",
                "4720[1].pbsserver", "4720[2].pbsserver", "4720[3].pbsserver", "4720[4].pbsserver", "4721.pbsserver",
                "4722.pbsserver", "4723.pbsserver", "4724.pbsserver"), jobs.keySet(), "the array parent is left out");

        SchedulerJob scatterExcl = jobs.get("4716.pbsserver");
        assertEquals(JobState.Queued, scatterExcl.state());
        assertEquals(List.of(new Chunk(2, 16, 32768, 0)), scatterExcl.chunks());
        assertEquals(Placement.scatter, scatterExcl.placement());
        assertTrue(scatterExcl.exclusive());
        assertEquals(2, scatterExcl.nodes());
        assertEquals(List.of("pinta00"), scatterExcl.queues());
        assertEquals(Instant.parse("2020-11-23T23:10:01Z"), scatterExcl.submittedAt());

        SchedulerJob small = jobs.get("4717.pbsserver");
        assertEquals(List.of(new Chunk(1, 4, 4096, 0)), small.chunks());
        assertEquals(Placement.pack, small.placement());
        assertFalse(small.exclusive());

        assertEquals(JobState.Hold, jobs.get("4718.pbsserver").state());
        assertEquals(JobState.Running, jobs.get("4719.pbsserver").state());
        assertEquals(JobState.Running, jobs.get("4720[1].pbsserver").state());
        for (String subjob : List.of("4720[2].pbsserver", "4720[3].pbsserver", "4720[4].pbsserver")) {
            assertEquals(JobState.Queued, jobs.get(subjob).state());
            assertEquals(List.of(new Chunk(1, 2, 0, 0)), jobs.get(subjob).chunks());
        }

        SchedulerJob gpu = jobs.get("4721.pbsserver");
        assertEquals(List.of(new Chunk(1, 12, 204800, 2)), gpu.chunks());
        assertTrue(gpu.exclusive(), "gpuq's nodes are default_excl");

        SchedulerJob mixed = jobs.get("4722.pbsserver");
        assertEquals(List.of(new Chunk(1, 8, 61440, 0), new Chunk(2, 16, 0, 0)), mixed.chunks());
        assertEquals(3, mixed.nodes());
        assertEquals(Placement.scatter, mixed.placement());

        assertEquals(JobState.Waiting, jobs.get("4723.pbsserver").state(), "held by its dependency");
        assertEquals(JobState.Waiting, jobs.get("4724.pbsserver").state(), "waiting for its start time");
    }

    @Test
    void readsEveryKindOfNode() throws Exception {
        Map<String, SchedulerNode> nodes = nodes().nodes().stream()
                .collect(Collectors.toMap(SchedulerNode::name, Function.identity()));
        assertEquals(6, nodes.size());

        SchedulerNode shared = nodes.get("hpcnode03");
        assertEquals(NodeJobStatus.Busy, shared.jobStatus(), "free, but running two jobs");
        assertEquals(List.of("110298.pbsserver", "110609.pbsserver"), shared.jobIds());
        assertEquals(List.of("normal"), shared.queues(), "from resources_available.Qlist");
        assertEquals(56, shared.cpusTotal());
        assertEquals(32, shared.cpusUsed());
        assertEquals(375000, shared.memoryMb());
        assertEquals(272384, shared.memoryMbUsed());

        SchedulerNode free = nodes.get("pinta007y000001");
        assertEquals(NodeJobStatus.Free, free.jobStatus());
        assertEquals(List.of("pinta00"), free.queues());
        assertFalse(free.isOffline() || free.down());
        assertEquals(Instant.ofEpochSecond(1606160000), free.lastUsedAt());

        SchedulerNode busy = nodes.get("pinta007y000002");
        assertEquals(NodeJobStatus.Busy, busy.jobStatus());
        assertEquals(List.of("110700.pbsserver"), busy.jobIds(), "one id for the job's sixteen CPUs");

        SchedulerNode ours = nodes.get("pinta007y000003");
        assertTrue(ours.isOffline() && ours.offlineByHpcscale() && !ours.down());

        SchedulerNode unknown = nodes.get("pinta007y000004");
        assertTrue(unknown.down() && !unknown.isOffline());

        SchedulerNode maintenance = nodes.get("gpu001");
        assertTrue(maintenance.down() && maintenance.isOffline() && !maintenance.offlineByHpcscale());
        assertEquals(4, maintenance.gpus());
        assertEquals("down,offline", maintenance.rawState());
    }

    @Test
    void readsTheHistoryOfALargeSite() throws Exception {
        PbsOutputParser.Jobs jobs = jobsOf(parser, Fixtures.text(Fixtures.HISTORY_JOBS));
        assertEquals(1, jobs.jobs().size(), "the three finished jobs are not demand");
        SchedulerJob held = jobs.jobs().get(0);
        assertEquals("4905472.aurora-pbs-0001.hostmgmt.cm.aurora.alcf.anl.gov", held.id());
        assertEquals(JobState.Hold, held.state());
        assertEquals(List.of(new Chunk(10000, 208, 0, 0)), held.chunks(), "select is the JSON number 10000");
        assertEquals(10000, held.nodes());
        assertEquals(Placement.scatter, held.placement());
    }

    @Test
    void readsWhichQueuesAreStopped() throws Exception {
        assertEquals(Set.of("R5822932", "M5937698", "S5945379"), stoppedQueues(Fixtures.SITE_QUEUES));
        assertEquals(Set.of(), stoppedQueues(Fixtures.CLOUD_QUEUES));
    }

    @Test
    void reportsQueuedJobsOfAStoppedQueueAsHeld() throws Exception {
        PbsOutputParser.Jobs jobs = parser.jobs(stream(Fixtures.bytes(Fixtures.CLOUD_JOBS)), "qstat",
                new PbsQueues(Set.of("gpuq"), QueueSharing.none()));
        SchedulerJob gpu = jobs.jobs().stream().filter(j -> j.id().equals("4721.pbsserver")).findFirst().orElseThrow();
        assertEquals(JobState.Hold, gpu.state());
    }

    @Test
    void aJobReadUnchangedFollowsItsQueueBeingStoppedAndStarted() throws Exception {
        for (Set<String> stopped : List.of(Set.<String>of(), Set.of("gpuq"), Set.<String>of())) {
            PbsOutputParser.Jobs jobs = parser.jobs(stream(Fixtures.bytes(Fixtures.CLOUD_JOBS)), "qstat",
                    new PbsQueues(stopped, QueueSharing.none()));
            SchedulerJob gpu = jobs.jobs().stream().filter(j -> j.id().equals("4721.pbsserver")).findFirst()
                    .orElseThrow();
            assertEquals(stopped.isEmpty() ? JobState.Queued : JobState.Hold, gpu.state(), stopped.toString());
        }
    }

    @Test
    void repairsBareNumbersWithLeadingZerosAndManyDigits() throws Exception {
        PbsOutputParser.Jobs jobs = jobsOf(parser, Fixtures.text(Fixtures.MALFORMED_JOBS));
        assertTrue(jobs.unreadable().isEmpty());
        SchedulerJob job = jobs.jobs().get(0);
        assertEquals("5001.pbsserver", job.id());
        assertEquals(JobState.Queued, job.state());
        assertEquals(List.of(new Chunk(1, 8, 0, 0)), job.chunks());
    }

    @Test
    void skipsMalformedJobAndKeepsOthers() throws Exception {
        String text = """
                {"pbs_server":"s","Jobs":{
                  "1.s":{"job_state":"Q","queue":"q","Resource_List":{"select":"1:ncpus=2"}},
                  "2.s":{"job_state":"Q","queue":"q","Variable_List":{"X":tru},"Resource_List":{"select":"1"}},
                  "3.s":{"job_state":"Q","queue":"q","Resource_List":{"select":"1:ncpus=lots"}},
                  "4.s":{"queue":"q"},
                  "5.s":{"job_state":"R","queue":"q","Resource_List":{"ncpus":4,"nodect":1}}
                }}""";
        PbsOutputParser.Jobs jobs = jobsOf(parser, text);
        assertEquals(Set.of("2.s", "3.s", "4.s"), jobs.unreadable());
        assertEquals(List.of("1.s", "5.s"), jobs.jobs().stream().map(SchedulerJob::id).toList());
        assertEquals(List.of(new Chunk(1, 4, 0, 0)), jobs.jobs().get(1).chunks());
    }

    @Test
    void anOutputWithoutJobsMeansNoJobs() throws Exception {
        String empty = "{\n    \"timestamp\":1606173520,\n    \"pbs_version\":\"19.2.6\",\n    \"pbs_server\":\"s\"\n}\n";
        PbsOutputParser.Jobs jobs = jobsOf(parser, empty);
        assertTrue(jobs.jobs().isEmpty() && jobs.unreadable().isEmpty());
    }

    @Test
    void refusesOutputThatIsNotPbsJson() {
        for (String garbage : List.of("", "qstat: cannot connect to server pbsserver (errno=15010)\n",
                "{\"pbs_server\":\"s\",\"Jobs\":{\"1.s\":{\"job_state\":\"Q\"", "{\"something\":\"else\"}",
                "<html>proxy error</html>")) {
            SchedulerReadException e = assertThrows(SchedulerReadException.class, () -> jobsOf(parser, garbage));
            assertTrue(e.getMessage().contains("nothing was changed") || e.getMessage().contains("Nothing was changed"),
                    e.getMessage());
        }
    }

    @Test
    void pbsnodesThatPrintsNothingIsToldApartFromOneThatPrintsNodes() throws Exception {
        assertTrue(parser.nodes(stream(new byte[0]), "pbsnodes").isEmpty());
        assertTrue(parser.nodes(stream("{\"pbs_server\":\"s\",\"nodes\":{}}"), "pbsnodes").isPresent());
    }

    @Test
    void jobsNodesOrQueuesThatAreNotAnObjectAreUnreadableOutputNotAnEmptyCluster() {
        String header = "{\"timestamp\":1,\"pbs_version\":\"2022.1.7\",\"pbs_server\":\"s\",";
        for (String value : List.of("[]", "null", "\"\"")) {
            List<SchedulerReadException> failures = List.of(
                    assertThrows(SchedulerReadException.class,
                            () -> jobsOf(parser, header + "\"Jobs\":" + value + "}")),
                    assertThrows(SchedulerReadException.class, () -> nodesOf(header + "\"nodes\":" + value + "}")),
                    assertThrows(SchedulerReadException.class,
                            () -> parser.queues(stream(header + "\"Queue\":" + value + "}"), "qstat -Q -f -F json")));
            for (SchedulerReadException e : failures) {
                assertTrue(e.getMessage().contains("should hold an object but holds")
                        && e.getMessage().contains("nothing was changed"), e.getMessage());
            }
        }
    }

    @Test
    void aJobOrNodeWithAnEmptyNameOrThatIsNotAnObjectIsSkippedAndTheOthersKept() throws Exception {
        PbsOutputParser.Jobs jobs = jobsOf(parser, """
                {"pbs_server":"s","Jobs":{
                  "":{"job_state":"Q","queue":"q","Resource_List":{"ncpus":1}},
                  "2.s":5, "3.s":null, "4.s":[1], "5.s":"Q",
                  "6.s":{"job_state":"Q","queue":"q","Resource_List":{"ncpus":1}}
                }}""");
        assertEquals(List.of("6.s"), jobs.jobs().stream().map(SchedulerJob::id).toList());
        assertEquals(Set.of("", "2.s", "3.s", "4.s", "5.s"), jobs.unreadable());
        PbsOutputParser.Nodes nodes = nodesOf("""
                {"pbs_server":"s","nodes":{" ":{"state":"free"},"n2":7,"n3":{"state":"free"}}}""");
        assertEquals(List.of("n3"), nodes.nodes().stream().map(SchedulerNode::name).toList());
        assertEquals(Set.of(" ", "n2"), nodes.unreadable());
    }

    @Test
    void aLastUsedTimeBeyondAnyDateIsNoTimeAndTheNodeIsKept() throws Exception {
        PbsOutputParser.Nodes nodes = nodesOf("""
                {"pbs_server":"s","nodes":{
                  "n1":{"state":"free","last_used_time":99999999999999999},
                  "n2":{"state":"free","last_used_time":123456789012345678901234567890},
                  "n3":{"state":"free","last_used_time":1606160000}}}""");
        assertTrue(nodes.unreadable().isEmpty());
        assertEquals(java.util.Arrays.asList(null, null, Instant.ofEpochSecond(1606160000)),
                nodes.nodes().stream().map(SchedulerNode::lastUsedAt).toList());
    }

    @Test
    void aGiganticJobIsUnreadableAndTheOthersAreKept() throws Exception {
        String environment = "x".repeat(JsonMembers.MAX_ENTRY_BYTES);
        PbsOutputParser.Jobs jobs = jobsOf(parser, "{\"pbs_server\":\"s\",\"Jobs\":{"
                + "\"1.s\":{\"job_state\":\"Q\",\"queue\":\"q\",\"Variable_List\":{\"X\":\"" + environment + "\"}},"
                + "\"2.s\":{\"job_state\":\"Q\",\"queue\":\"q\",\"Resource_List\":{\"ncpus\":1}}}}");
        assertEquals(Set.of("1.s"), jobs.unreadable());
        assertEquals(List.of("2.s"), jobs.jobs().stream().map(SchedulerJob::id).toList());
    }

    @Test
    void aJobWithoutSubmitTimeHasNone() throws Exception {
        assertNull(cloudJobs().get("4720[2].pbsserver").submittedAt());
    }
}
