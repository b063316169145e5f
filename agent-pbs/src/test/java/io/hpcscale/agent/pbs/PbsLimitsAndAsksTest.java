package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hpcscale.common.agent.JobAsks;
import io.hpcscale.common.agent.QueueLimit;
import io.hpcscale.common.agent.QueueLimit.Kind;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Queue limits as a real PBS Professional 2022.1 server prints them (qstat_Q_f_F_json.json, ALCF's Aurora), and as
 * OpenPBS prints several entries of one limit since PR #2678; what a job asks beyond its chunks.
 */
class PbsLimitsAndAsksTest {
    private final PbsOutputParser parser = new PbsOutputParser(ZoneOffset.UTC);

    private Map<String, PbsQueue> queues(byte[] output) throws Exception {
        return parser.queues(new ByteArrayInputStream(output), "qstat -Q -f -F json").stream()
                .collect(Collectors.toMap(PbsQueue::name, q -> q));
    }

    @Test
    void readsTheLimitsOfARealSite() throws Exception {
        Map<String, PbsQueue> site = queues(Fixtures.bytes(Fixtures.SITE_QUEUES));
        assertEquals(List.of(
                new QueueLimit(Kind.RUNNING_JOBS, QueueLimit.EACH_USER, 1, "max_run = [u:PBS_GENERIC=1]"),
                new QueueLimit(Kind.RUNNING_NODES, null, 32, "max_run_res.nodect = [o:PBS_ALL=32]"),
                new QueueLimit(Kind.JOB_NODES, null, 2, "resources_max.nodect = 2")), site.get("debug").limits());
        assertEquals(List.of(
                new QueueLimit(Kind.RUNNING_JOBS, QueueLimit.EACH_USER, 1, "max_run = [u:PBS_GENERIC=1]"),
                new QueueLimit(Kind.RUNNING_NODES, "bramesh", 30, "max_run_res.nodect = [u:bramesh=30]")),
                site.get("sandbox").limits(), "one user's limit; max_queued is PBS's own at submission");
        assertEquals(List.of(new QueueLimit(Kind.JOB_NODES, null, 512, "resources_max.nodect = 512")),
                site.get("tiny").limits(), "a project's max_queued is not the agent's to apply");
        assertEquals(List.of(new QueueLimit(Kind.JOB_CPUS, null, 7904, "resources_max.ncpus = 7904")),
                site.get("R5515331").limits());
        assertEquals(List.of(), site.values().stream().flatMap(q -> q.problems().stream()).toList());
    }

    @Test
    void readsSeveralEntriesOfOneLimitAndSaysWhichCannotBeRead() throws Exception {
        String output = "{\"timestamp\":1,\"pbs_version\":\"23.06.06\",\"pbs_server\":\"s\",\"Queue\":{"
                + "\"workq\":{\"queue_type\":\"Execution\",\"max_run\":\"[u:alice=4],[o:PBS_ALL=10],[g:staff=2]\","
                + "\"max_running\":8,\"max_user_run\":\"two\"}}}";
        PbsQueue workq = queues(output.getBytes(StandardCharsets.UTF_8)).get("workq");
        assertEquals(List.of(new QueueLimit(Kind.RUNNING_JOBS, "alice", 4, "max_run = [u:alice=4]"),
                new QueueLimit(Kind.RUNNING_JOBS, null, 10, "max_run = [o:PBS_ALL=10]"),
                new QueueLimit(Kind.RUNNING_JOBS, null, 8, "max_running = 8")), workq.limits());
        assertEquals(List.of("max_user_run = two is not a whole number"), workq.problems());
    }

    @Test
    void aJobsCustomResourcesAreConstraintsAndItsJobWideNumbersSharedResources() {
        JobAsks asks = PbsAsks.of("2:ncpus=120:mpiprocs=120:infiniband=True:scratch=100gb+1:ncpus=4:site=dc2",
                Map.of("ncpus", "244", "mathematica", "2", "nodect", "3", "walltime", "01:00:00", "place", "scatter"),
                "alice@login1.cluster");
        assertEquals("[{\"infiniband\":true,\"scratch\":\"size::100g\"},{\"site\":\"dc2\"}]", asks.constraints(),
                "each chunk's resources, none overwriting another's");
        assertEquals("[{\"scratch\":\"size::500g\"},{\"scratch\":\"size::10g\"}]",
                PbsAsks.of("1:ncpus=4:scratch=500gb+4:ncpus=4:scratch=10gb+2:scratch=10gb", Map.of(), null)
                        .constraints());
        assertEquals(Map.of("mathematica", 2L), asks.shared());
        assertEquals("alice", asks.owner());

        JobAsks plain = PbsAsks.of("1:ncpus=8:mem=16gb", Map.of("ncpus", "8"), null);
        assertNull(plain.constraints(), "PBS's own resources are the chunks, not constraints");
        assertEquals(Map.of(), plain.shared());
        assertNull(plain.owner());
    }
}
