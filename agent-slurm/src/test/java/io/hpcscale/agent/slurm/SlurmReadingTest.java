package io.hpcscale.agent.slurm;

import static io.hpcscale.agent.slurm.SlurmFixtures.DRAINING;
import static io.hpcscale.agent.slurm.SlurmFixtures.STEADY;
import static io.hpcscale.agent.slurm.SlurmFixtures.moment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.SchedulerSnapshot;
import io.hpcscale.common.agent.UnreadableEntryLog;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.FakeCommandRunner;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.JobTimes;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import java.io.BufferedReader;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** squeue and sinfo as the agent reads them, over the captured outputs of a real Slurm 22.05 and bad input. */
class SlurmReadingTest {
    private static final CommandLimits LIMITS = new CommandLimits(Duration.ofSeconds(5), "agent.commandTimeout",
            64 << 20, "agent.commandMaxOutput");
    private static final SlurmCommands COMMANDS = new SlurmCommands("squeue", "sinfo", "scontrol", "sdiag", null,
            LIMITS);

    private final FakeCommandRunner runner = new FakeCommandRunner();

    private SlurmAdapter adapter(SlurmAdapter.Format format) {
        return new SlurmAdapter(runner, COMMANDS, format, ZoneOffset.UTC);
    }

    private SchedulerSnapshot json(String squeue, String sinfo) throws Exception {
        runner.printing(List.of("squeue", "--json"), squeue).printing(List.of("sinfo", "--json"), sinfo);
        return adapter(SlurmAdapter.Format.JSON).read();
    }

    private static BufferedReader lines(String output) {
        return new BufferedReader(new StringReader(output));
    }

    private static Map<String, SchedulerJob> jobs(SchedulerSnapshot snapshot) {
        return snapshot.jobs().stream().collect(Collectors.toMap(SchedulerJob::id, Function.identity()));
    }

    private static Map<String, SchedulerNode> nodes(SchedulerSnapshot snapshot) {
        return snapshot.nodes().stream().collect(Collectors.toMap(SchedulerNode::name, Function.identity()));
    }

    @Test
    void readsEveryKindOfJobFromJson() throws Exception {
        SchedulerSnapshot snapshot = json(moment(STEADY, "squeue-json", ".json"), moment(STEADY, "sinfo-json",
                ".json"));
        Map<String, SchedulerJob> jobs = jobs(snapshot);
        assertTrue(snapshot.unreadableJobIds().isEmpty(), snapshot.unreadableJobIds().toString());
        assertEquals(Set.of("1", "2", "3", "4", "5_1", "5_2", "5_3", "5_4", "5_5", "5_6", "6", "7", "8", "9", "10",
                "11", "12", "13", "14"), jobs.keySet());

        assertEquals(JobState.Running, jobs.get("1").state());
        assertEquals(List.of(new Chunk(2, 2, 0, 0)), jobs.get("1").chunks());
        assertEquals(Placement.scatter, jobs.get("1").placement());
        assertTrue(jobs.get("1").exclusive(), "shared = none: --exclusive");
        assertFalse(jobs.get("3").exclusive());

        assertEquals(JobState.Queued, jobs.get("2").state(), "Resources");
        assertEquals(JobState.Queued, jobs.get("10").state(), "Priority");
        assertEquals(JobState.Hold, jobs.get("6").state(), "JobHeldUser");
        assertEquals(JobState.Hold, jobs.get("7").state(), "JobHeldAdmin");
        assertEquals(List.of(new Chunk(2, 2, 500, 0)), jobs.get("7").chunks(), "--mem=500 per node");
        assertEquals(JobState.Waiting, jobs.get("9").state(), "Dependency");
        assertEquals(List.of("debug", "batch"), jobs.get("11").queues());
        for (String task : List.of("5_4", "5_5", "5_6")) {
            assertEquals(JobState.Queued, jobs.get(task).state(), "pending array task " + task);
        }
        assertEquals(JobState.Running, jobs.get("5_1").state());
        assertEquals(List.of(new Chunk(1, 1, 2000, 0)), jobs.get("14").chunks(), "--mem-per-cpu=2000");
        assertEquals(List.of(new Chunk(3, 3, 0, 0)), jobs.get("13").chunks(), "8 CPUs over 3 nodes");

        assertEquals(new JobTimes(Duration.ofMinutes(10), Instant.ofEpochSecond(1795327389),
                Instant.ofEpochSecond(1795327989)), jobs.get("14").times(),
                "--time=10, running since its start_time, ending at Slurm's end_time");
        assertEquals(new JobTimes(null, Instant.ofEpochSecond(1795327376)), jobs.get("4").times(),
                "no time limit: its end cannot be foreseen (Slurm's end_time of an unlimited job is a year on)");
        assertEquals(JobTimes.UNKNOWN, jobs.get("2").times(), "a pending job's start_time is Slurm's guess, not kept");
    }

    @Test
    void readsNodesTheirFlagsAndTheirJobsFromJson() throws Exception {
        Map<String, SchedulerNode> nodes = nodes(json(moment(STEADY, "squeue-json", ".json"),
                moment(STEADY, "sinfo-json", ".json")));
        SchedulerNode node3 = nodes.get("node3");
        assertEquals(NodeJobStatus.Busy, node3.jobStatus());
        assertEquals(List.of("4", "5_1"), node3.jobIds());
        assertEquals(List.of("batch"), node3.queues());
        assertEquals(2, node3.cpusTotal());
        assertEquals(List.of("12", "13"), nodes.get("cnode1").jobIds());
        SchedulerNode powered = nodes.get("cnode4");
        assertTrue(powered.down() && !powered.isOffline(), "CLOUD+POWERED_DOWN is down");
        assertEquals(NodeJobStatus.Free, powered.jobStatus());
        assertEquals(3, nodes.get("cnode3").cpusUsed());
        assertEquals(4000, nodes.get("cnode3").memoryMb());
    }

    @Test
    void aDrainingNodeIsOfflineButNotOursUnlessItsReasonSaysSo() throws Exception {
        Map<String, SchedulerNode> nodes = nodes(json(moment(DRAINING, "squeue-json", ".json"),
                moment(DRAINING, "sinfo-json", ".json")));
        SchedulerNode draining = nodes.get("node4");
        assertTrue(draining.isOffline() && !draining.offlineByHpcscale() && !draining.down());
        assertEquals(NodeJobStatus.Busy, draining.jobStatus());

        String ours = moment(DRAINING, "sinfo-json", ".json").replace("\"scaledown\"", "\"hpcscale: idle 5m\"");
        assertTrue(nodes(json(moment(DRAINING, "squeue-json", ".json"), ours)).get("node4").offlineByHpcscale());
    }

    @Test
    void readsTheCloudNodeStatesOfPowerSaving() throws Exception {
        String squeue = moment(STEADY, "squeue-json", ".json");
        for (String file : List.of("sinfo-json_cloud-powered-down.json", "sinfo-json_cloud-powering-up.json",
                "sinfo-json_cloud-resume-timeout.json")) {
            Map<String, SchedulerNode> nodes = nodes(json(squeue, SlurmFixtures.text(file)));
            assertTrue(nodes.get("cnode1").down(), file + ": powered down, powering up or timed out is down");
        }
        Map<String, SchedulerNode> up = nodes(json(squeue, SlurmFixtures.text("sinfo-json_cloud-powered-up.json")));
        assertFalse(up.get("cnode1").down());
    }

    @Test
    void everyCapturedJsonOutputIsReadWhole() throws Exception {
        for (String squeue : List.of("squeue-json_mixed-running-pending-held.json", "squeue-json_cloud-configuring.json",
                "final/squeue-json_t0-submitted-cloud-booting.json", "final/squeue-json_t3-cnode3-power-down-asap.json",
                "final/squeue-json_t4-cnode1-power-down-force.json")) {
            for (String sinfo : List.of("sinfo-json_4nodes-alloc-mixed.json", "sinfo-json_node3-draining.json",
                    "sinfo-json_node3-down-noresp.json", "final/sinfo-json_t0-submitted-cloud-booting.json",
                    "final/sinfo-json_t3-cnode3-power-down-asap.json",
                    "final/sinfo-json_t4-cnode1-power-down-force.json")) {
                SchedulerSnapshot snapshot = json(SlurmFixtures.text(squeue), SlurmFixtures.text(sinfo));
                assertTrue(snapshot.unreadableJobIds().isEmpty() && snapshot.unreadableNodes().isEmpty(),
                        squeue + " / " + sinfo);
                assertFalse(snapshot.jobs().isEmpty() || snapshot.nodes().isEmpty(), squeue + " / " + sinfo);
            }
        }
    }

    @Test
    void finishedJobsAreNotDemand() throws Exception {
        SchedulerSnapshot snapshot = json(SlurmFixtures.text("squeue-json_mixed-running-pending-held.json"),
                SlurmFixtures.text("sinfo-json_4nodes-alloc-mixed.json"));
        String raw = SlurmFixtures.text("squeue-json_mixed-running-pending-held.json");
        assertTrue(raw.contains("\"CANCELLED\""));
        assertTrue(snapshot.jobs().stream().noneMatch(j -> j.state() == JobState.Finished));
    }

    @Test
    void readsThePipeFormatsOfOlderSlurm() throws Exception {
        UnreadableEntryLog log = new UnreadableEntryLog();
        SlurmPipeReader reader = new SlurmPipeReader(log, ZoneOffset.UTC);
        SlurmReadResult<SlurmJob> jobs = reader.jobs(lines(moment(STEADY, "squeue-o-extended-r", ".txt")),
                new PipeFormat(SlurmFixtures.SQUEUE_EXTENDED));
        assertTrue(jobs.unreadable().isEmpty());
        Map<String, SlurmJob> byId = jobs.entries().stream().collect(Collectors.toMap(SlurmJob::id,
                Function.identity()));
        assertEquals(Set.of("1", "2", "3", "4", "5_1", "5_2", "5_3", "5_4", "5_5", "5_6", "6", "7", "8", "9", "10",
                "11", "12", "13", "14"), byId.keySet());
        assertEquals(JobState.Hold, SlurmStates.job(byId.get("7")).orElseThrow().state());
        assertEquals(List.of(new Chunk(2, 2, 500, 0)), SlurmStates.job(byId.get("7")).orElseThrow().chunks());
        assertEquals(new JobTimes(Duration.ofMinutes(10), Instant.parse("2026-11-22T06:03:09Z")),
                SlurmStates.job(byId.get("14")).orElseThrow().times(), "10:00 is ten minutes");
        assertEquals(new JobTimes(null, Instant.parse("2026-11-22T06:02:56Z")),
                SlurmStates.job(byId.get("4")).orElseThrow().times(), "UNLIMITED");

        SlurmReadResult<SlurmNode> nodes = reader.nodes(lines(moment(DRAINING, "sinfo-N-o-extended", ".txt")),
                new PipeFormat(SlurmFixtures.SINFO_EXTENDED));
        Map<String, SchedulerNode> mapped = nodes.entries().stream().map(n -> SlurmStates.node(n, List.of()))
                .collect(Collectors.toMap(SchedulerNode::name, Function.identity()));
        assertTrue(mapped.get("node4").isOffline() && mapped.get("node4").jobStatus() == NodeJobStatus.Busy);
        assertTrue(mapped.get("cnode4").down(), "idle~ is powered down");
        assertEquals(3, mapped.get("cnode3").cpusUsed());

        SlurmReadResult<SlurmJob> unexpanded = reader.jobs(lines(SlurmFixtures.text("squeue-fmt-extended.txt")),
                new PipeFormat("%A|%i|%F|%K|%P|%j|%u|%T|%D|%C|%m|%b|%r|%N|%V|%S|%l|%Q"));
        assertTrue(unexpanded.entries().stream().map(SlurmJob::id).toList().containsAll(List.of("17_4", "17_5")));
    }

    @Test
    void aPipeLineLongerThanAnyRealOneIsSkippedByItsNumberAndTheOthersRead() throws Exception {
        SlurmPipeReader reader = new SlurmPipeReader(new UnreadableEntryLog(), ZoneOffset.UTC);
        String steady = moment(STEADY, "squeue-o-extended-r", ".txt");
        String output = "x".repeat(BoundedLines.MAX_LINE_CHARS + 1) + "\r\n" + steady;
        SlurmReadResult<SlurmJob> jobs = reader.jobs(lines(output), new PipeFormat(SlurmFixtures.SQUEUE_EXTENDED));
        assertEquals(Set.of("on line 1"), jobs.unreadable());
        assertEquals(reader.jobs(lines(steady), new PipeFormat(SlurmFixtures.SQUEUE_EXTENDED)).entries(),
                jobs.entries());
        SlurmReadResult<SlurmNode> nodes = reader.nodes(lines("y".repeat(BoundedLines.MAX_LINE_CHARS + 1)),
                new PipeFormat(SlurmFixtures.SINFO_EXTENDED));
        assertEquals(Set.of("on line 1"), nodes.unreadable());
    }

    /** A pending job's line in the agent's squeue format, with the reason Slurm gives. */
    private static String pending(String id, String reason) {
        return id + "|batch|PENDING|1|4|0|N/A|" + reason + "||2026-11-22T06:02:56|100|OK|(null)|30:00|N/A|(null)"
                + "|N/A\n";
    }

    @Test
    void aJobALimitHoldsWaitsForItNotForNodesAndOnesWhoseNodesAreDownStayQueued() throws Exception {
        runner.failing(List.of("sinfo", "--json"), 1, "sinfo: unrecognized option '--json'\n")
                .printing(List.of("sinfo", "-h"), "node1|batch|idle|4|0/4/0/4|8000|(null)|none\n")
                .printing(List.of("squeue", "-h"), pending("7", "QOSMaxCpuPerUserLimit")
                        + pending("8", "AssocGrpCPUMinutesLimit") + pending("9", "PartitionTimeLimit")
                        + pending("10", "PartitionNodeLimit") + pending("11", "ReqNodeNotAvail, UnavailableNodes:node2")
                        + pending("12", "Resources") + pending("13", "JobArrayTaskLimit"));
        Map<String, SchedulerJob> jobs = jobs(adapter(SlurmAdapter.Format.AUTO).read());
        for (String waiting : List.of("7", "8", "9", "13")) {
            assertEquals(JobState.Waiting, jobs.get(waiting).state(), waiting);
        }
        assertEquals("Slurm's QOSMaxCpuPerUserLimit: a limit or a setting, not a lack of nodes, holds it",
                jobs.get("7").waitingFor());
        for (String queued : List.of("10", "11", "12")) {
            assertEquals(JobState.Queued, jobs.get(queued).state(), queued + ": its nodes may be hpcscale's, stopped");
        }
    }

    @Test
    void probesJsonAndFallsBackToPipesWhereItIsMissing() throws Exception {
        runner.failing(List.of("sinfo", "--json"), 1, "sinfo: unrecognized option '--json'\n")
                .printing(List.of("sinfo", "-h"), "node1|batch|idle|4|0/4/0/4|8000|(null)|none\n")
                .printing(List.of("squeue", "-h"),
                        "7|batch|PENDING|1|4|0|N/A|Resources||2026-11-22T06:02:56|100|OK|(null)|30:00|N/A|(null)|N/A\n");
        SlurmAdapter adapter = adapter(SlurmAdapter.Format.AUTO);
        SchedulerSnapshot snapshot = adapter.read();
        assertEquals(List.of(new Chunk(1, 4, 0, 0)), snapshot.jobs().get(0).chunks());
        assertEquals(Duration.ofMinutes(30), snapshot.jobs().get(0).times().limit());
        assertEquals("node1", snapshot.nodes().get(0).name());
        adapter.read();
        assertEquals(1, runner.callsStartingWith(List.of("sinfo", "--json")).size(), "probed once");
    }

    @Test
    void aRunningJobsEndAndAnOrConstraintAreReadFromPipesFeaturesTakingTheRestOfTheLine() throws Exception {
        runner.failing(List.of("sinfo", "--json"), 1, "sinfo: unrecognized option '--json'\n")
                .printing(List.of("sinfo", "-h"), "node1|batch|allocated|4|4/0/0/4|8000|(null)|none\n")
                .printing(List.of("squeue", "-h"), "20|batch|RUNNING|1|4|0|N/A|None|node1|2026-11-22T06:02:56|100|NO|"
                        + "(null)|10:00|2026-11-22T06:03:09|2026-11-22T06:13:49|ib&(hbv3|hbv4)\n");

        SchedulerJob job = jobs(adapter(SlurmAdapter.Format.AUTO).read()).get("20");

        assertEquals(new JobTimes(Duration.ofMinutes(10), Instant.parse("2026-11-22T06:03:09Z"),
                Instant.parse("2026-11-22T06:13:49Z")), job.times(), "its end as Slurm says, 40 s after start + limit");
        assertTrue(job.asks().constraints().contains("hbv4"), "the whole OR constraint: " + job.asks().constraints());
    }

    @Test
    void aProbeThatCannotReachTheControllerDecidesNothing() {
        runner.failing(List.of("sinfo", "--json"), 1,
                "slurm_load_node error: Unable to contact slurm controller (connect failure)\n");
        SlurmAdapter adapter = adapter(SlurmAdapter.Format.AUTO);
        assertThrows(SchedulerReadException.class, adapter::read);
        assertThrows(SchedulerReadException.class, adapter::read);
        assertEquals(2, runner.callsStartingWith(List.of("sinfo", "--json")).size(), "probed again");
    }

    @Test
    void truncatedJsonFailsTheReadWithAClearError() {
        String squeue = moment(STEADY, "squeue-json", ".json");
        SchedulerReadException e = assertThrows(SchedulerReadException.class,
                () -> json(squeue.substring(0, squeue.length() / 2), moment(STEADY, "sinfo-json", ".json")));
        assertTrue(e.getMessage().contains("`squeue --json` printed output that cannot be read as JSON")
                && e.getMessage().contains("nothing was changed"), e.getMessage());
    }

    @Test
    void refusesADataFormatItCannotRead() {
        String current = moment(STEADY, "sinfo-json", ".json");
        String newer = current.replace("v0.0.38", "v0.0.40");
        assertFalse(newer.equals(current));
        SchedulerReadException e = assertThrows(SchedulerReadException.class,
                () -> json(moment(STEADY, "squeue-json", ".json"), newer));
        assertTrue(e.getMessage().contains("'openapi/v0.0.40'") && e.getMessage().contains(
                "set agent.slurm.format = pipe"), e.getMessage());
    }

    @Test
    void aJobOrNodeInAnUnknownStateIsSkippedAndTheRestKept() throws Exception {
        String squeue = moment(STEADY, "squeue-json", ".json").replaceFirst("\"PENDING\"", "\"TELEPORTING\"");
        String sinfo = moment(STEADY, "sinfo-json", ".json").replaceFirst("\"state\": \"allocated\"",
                "\"state\": \"levitating\"");
        SchedulerSnapshot snapshot = json(squeue, sinfo);
        assertEquals(1, snapshot.unreadableJobIds().size());
        assertEquals(1, snapshot.unreadableNodes().size());
        assertEquals(18, snapshot.jobs().size());
        assertEquals(7, snapshot.nodes().size());
    }

    private static final String META = "\"meta\": {\"plugin\": {\"type\": \"openapi/v0.0.38\", \"name\": "
            + "\"Slurm OpenAPI v0.0.38\"}, \"Slurm\": {\"version\": {\"major\": 22, \"micro\": 8, \"minor\": 5}, "
            + "\"release\": \"22.05.8\"}}, \"errors\": []";

    @Test
    void jobsOrNodesThatAreNotAJsonArrayAreUnreadableOutputNotAnEmptyCluster() {
        String sinfo = moment(STEADY, "sinfo-json", ".json");
        String squeue = moment(STEADY, "squeue-json", ".json");
        for (String value : List.of("{}", "null", "{\"1\": {\"job_id\": 1}}")) {
            SchedulerReadException jobs = assertThrows(SchedulerReadException.class,
                    () -> json("{" + META + ", \"jobs\": " + value + "}", sinfo));
            assertTrue(jobs.getMessage().contains("\"jobs\" should hold an array but holds ")
                    && jobs.getMessage().contains("nothing was changed"), jobs.getMessage());
            SchedulerReadException nodes = assertThrows(SchedulerReadException.class,
                    () -> json(squeue, "{" + META + ", \"nodes\": " + value + "}"));
            assertTrue(nodes.getMessage().contains("\"nodes\" should hold an array but holds "), nodes.getMessage());
        }
    }

    @Test
    void aJobOrNodeThatIsNotAnObjectOrHasNoIdIsSkippedAndTheOthersKept() throws Exception {
        SchedulerSnapshot snapshot = json("{" + META + ", \"jobs\": [5, \"x\", null, [1], "
                + "{\"job_id\": \"\", \"job_state\": \"PENDING\"}, {\"job_id\": 0, \"job_state\": \"PENDING\"}, "
                + "{\"job_id\": 7, \"job_state\": \"PENDING\", \"partition\": \"batch\"}]}",
                "{" + META + ", \"nodes\": [7, {\"name\": \"\", \"state\": \"idle\"}, "
                        + "{\"name\": \"node1\", \"state\": \"idle\", \"partitions\": [\"batch\"]}]}");
        assertEquals(List.of("7"), snapshot.jobs().stream().map(SchedulerJob::id).toList());
        assertEquals(Set.of("entry 1", "entry 2", "entry 3", "entry 4", "entry 5", "0"), snapshot.unreadableJobIds());
        assertEquals(JobState.Queued, snapshot.jobs().get(0).state(), "a pending job without a reason is queued");
        assertEquals(List.of("node1"), snapshot.nodes().stream().map(SchedulerNode::name).toList());
        assertEquals(Set.of("entry 1", "entry 2"), snapshot.unreadableNodes());
    }

    @Test
    void timesBeyondAnyDateAreNoTimeAndTheJobOrNodeIsKept() throws Exception {
        SchedulerSnapshot snapshot = json("{" + META + ", \"jobs\": ["
                + "{\"job_id\": 7, \"job_state\": \"PENDING\", \"submit_time\": 99999999999999999},"
                + "{\"job_id\": 8, \"job_state\": \"PENDING\", \"submit_time\": 12345678901234567890123},"
                + "{\"job_id\": 9, \"job_state\": \"PENDING\", \"submit_time\": 1795371546}]}",
                "{" + META + ", \"nodes\": [{\"name\": \"node1\", \"state\": \"idle\", "
                        + "\"last_busy\": 99999999999999999}]}");
        assertTrue(snapshot.unreadableJobIds().isEmpty() && snapshot.unreadableNodes().isEmpty());
        assertEquals(java.util.Arrays.asList(null, null, java.time.Instant.ofEpochSecond(1795371546)),
                snapshot.jobs().stream().map(SchedulerJob::submittedAt).toList());
        assertEquals(null, snapshot.nodes().get(0).lastUsedAt());
    }

    @Test
    void aGiganticJobIsUnreadableAndTheOthersAreKept() throws Exception {
        String huge = "{\"job_id\": 6, \"job_state\": \"PENDING\", \"comment\": \""
                + "x".repeat(io.hpcscale.common.json.JsonMembers.MAX_ENTRY_BYTES) + "\"}";
        SchedulerSnapshot snapshot = json("{" + META + ", \"jobs\": [" + huge
                + ", {\"job_id\": 7, \"job_state\": \"PENDING\"}]}", moment(STEADY, "sinfo-json", ".json"));
        assertEquals(List.of("7"), snapshot.jobs().stream().map(SchedulerJob::id).toList());
        assertEquals(Set.of("entry 1"), snapshot.unreadableJobIds());
    }

    @Test
    void errorsReportedBySlurmFailTheRead() {
        String failed = moment(STEADY, "sinfo-json", ".json").replace("\"errors\": [\n  ]",
                "\"errors\": [{\"error\": \"Unable to contact slurm controller\", \"errno\": 1}]");
        assertTrue(!failed.equals(moment(STEADY, "sinfo-json", ".json")), "the fixture has an empty errors list");
        SchedulerReadException e = assertThrows(SchedulerReadException.class,
                () -> json(moment(STEADY, "squeue-json", ".json"), failed));
        assertTrue(e.getMessage().contains("Unable to contact slurm controller"), e.getMessage());
    }

    @Test
    void drainsWithTheMarkerAndResumesWithScontrol() throws Exception {
        runner.printing(List.of("scontrol"), "");
        SlurmAdapter adapter = adapter(SlurmAdapter.Format.JSON);
        adapter.offline("node4", "idle 5m");
        adapter.bringBack("node4");
        assertEquals(List.of(List.of("scontrol", "update", "nodename=node4", "state=drain", "reason=hpcscale: idle 5m"),
                List.of("scontrol", "update", "nodename=node4", "state=resume")), runner.calls());
    }
}
