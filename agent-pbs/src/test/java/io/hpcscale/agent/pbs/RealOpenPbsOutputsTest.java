package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.agent.OfflineMark;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.JobTimes;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The outputs of a real OpenPBS 23.06.06 (fixtures/pbs/real, scenario in its README), read the way the agent reads
 * them: who holds which node, which node takes no other job, whose offline mark is whose.
 */
class RealOpenPbsOutputsTest {
    private final PbsOutputParser parser = new PbsOutputParser(ZoneOffset.UTC);

    private Map<String, SchedulerNode> nodes(String fixture) throws Exception {
        return parser.nodes(new ByteArrayInputStream(Fixtures.bytes("real/" + fixture)), "pbsnodes").orElseThrow()
                .nodes().stream().collect(Collectors.toMap(SchedulerNode::name, Function.identity()));
    }

    private Map<String, SchedulerJob> jobs() throws Exception {
        PbsOutputParser.Jobs jobs = parser.jobs(new ByteArrayInputStream(Fixtures.bytes("real/qstat_f_t_F_json.json")),
                "qstat", new PbsQueues(Set.of(), QueueSharing.none()));
        assertEquals(Set.of(), jobs.unreadable());
        return jobs.jobs().stream().collect(Collectors.toMap(SchedulerJob::id, Function.identity()));
    }

    @Test
    void aSuspendedJobHoldsTheNodeItsExecHostNamesThoughPbsnodesShowsItFree() throws Exception {
        SchedulerJob suspended = jobs().get("9.vm");
        assertEquals(JobState.Running, suspended.state());
        assertEquals(List.of("cn009"), suspended.hosts());
        SchedulerNode cn009 = nodes("pbsnodes_a_F_json.json").get("cn009");
        assertEquals(List.of(), cn009.jobIds(), "pbsnodes lists nothing on the node of a suspended job");
    }

    @Test
    void everyStartedJobNamesItsHostsOnceAndQueuedOnesNone() throws Exception {
        Map<String, SchedulerJob> jobs = jobs();
        assertEquals(List.of("cn001", "cn002"), jobs.get("5.vm").hosts());
        assertEquals(List.of("cn003"), jobs.get("6.vm").hosts(), "two chunks on one node");
        assertEquals(List.of("cn004"), jobs.get("8[1].vm").hosts());
        assertEquals(List.of(), jobs.get("8[4].vm").hosts());
        assertEquals(List.of(), jobs.get("10.vm").hosts());
        assertFalse(jobs.containsKey("8[].vm"), "the array parent is not demand of its own");
    }

    @Test
    void aRunningJobsWalltimeAndStartAreWhatBackfillingPlansWith() throws Exception {
        Map<String, SchedulerJob> jobs = jobs();
        assertEquals(new JobTimes(Duration.ofHours(1), Instant.parse("2026-11-26T11:11:48Z")), jobs.get("5.vm").times());
        assertEquals(Duration.ofMinutes(30), jobs.get("6.vm").times().limit());
        assertEquals(new JobTimes(null, Instant.parse("2026-11-26T11:11:48Z")), jobs.get("7.vm").times(),
                "no walltime asked: its end cannot be foreseen");
        assertEquals(new JobTimes(Duration.ofHours(1), null), jobs.get("16.vm").times(), "held, never started");
        assertEquals(JobTimes.UNKNOWN, jobs.get("10.vm").times());
        assertEquals(JobTimes.UNKNOWN, jobs.get("9.vm").times(), "suspended: its walltime stopped running");
    }

    @Test
    void aJobExclusiveNodeIsMarkedSoItsUnusedCpusCountForNothing() throws Exception {
        Map<String, SchedulerNode> nodes = nodes("pbsnodes_a_F_json.json");
        SchedulerNode cn001 = nodes.get("cn001");
        assertTrue(cn001.exclusive());
        assertEquals(2, cn001.cpusTotal());
        assertEquals(1, cn001.cpusUsed(), "one of its two CPUs shows unused");
        assertFalse(nodes.get("cn003").exclusive(), "job-busy is not exclusive");
    }

    @Test
    void offlineMarksAreHpcscalesTheAdministratorsOrNobodys() throws Exception {
        Map<String, SchedulerNode> nodes = nodes("pbsnodes_a_F_json.json");
        assertEquals(OfflineMark.HPCSCALE, nodes.get("cn004").offline(), "offline,job-busy with hpcscale's comment");
        assertEquals(OfflineMark.HPCSCALE, nodes.get("cn005").offline());
        assertEquals(OfflineMark.OTHER, nodes.get("cn007").offline(), "down,offline with the maintenance comment");
        assertEquals(OfflineMark.NONE, nodes.get("cn006").offline(), "down, with the server's own comment");
        assertTrue(nodes.get("cn006").down());

        Map<String, SchedulerNode> afterReturn = nodes("pbsnodes_after_r.json");
        assertEquals(OfflineMark.NONE, afterReturn.get("cn004").offline(), "pbsnodes -r keeps the comment only");
    }
}
