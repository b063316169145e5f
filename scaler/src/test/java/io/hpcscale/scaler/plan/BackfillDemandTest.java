package io.hpcscale.scaler.plan;

import static io.hpcscale.scaler.plan.PoolStateBuilder.NOW;
import static io.hpcscale.scaler.plan.PoolStateBuilder.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.config.ConfigException;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.JobTimes;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.VmDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pool of four 16-CPU nodes: one runs a job for another 50 minutes, one is free and idle past its timeout, two are
 * stopped. A job of four whole nodes waits first in the queue: at the pool's max it fits only once the running job
 * ends, and the scheduler reserves that time for it.
 */
class BackfillDemandTest {
    private static final Duration RUNNING_FOR = Duration.ofMinutes(10);

    private static PoolStateBuilder pool(String demand, Duration runningLimit) {
        PoolStateBuilder pool = new PoolStateBuilder();
        pool.max = 4;
        pool.extraSettings.put("demand", demand);
        pool.busyNode(1, 16, "r1").freeNode(2, NOW.minus(Duration.ofMinutes(10))).stopped(2);
        pool.jobs.add(job("r1", JobState.Running, 1, NOW.minus(Duration.ofHours(1)),
                new JobTimes(runningLimit, NOW.minus(RUNNING_FOR))));
        pool.jobs.add(job("wide", JobState.Queued, 4, NOW.minus(Duration.ofMinutes(30)), JobTimes.UNKNOWN));
        return pool;
    }

    private static JobDocument job(String id, JobState state, int nodes, Instant submittedAt, JobTimes times) {
        return new JobDocument(id, "p", id, "p", state, nodes, List.of(new Chunk(nodes, 16, 1024, 0)),
                Placement.scatter, true, submittedAt, "agent-h-pbs", null, null, times);
    }

    /** A one-node job submitted after the wide one, asking for {@code limit}. */
    private static PoolStateBuilder behind(PoolStateBuilder pool, Duration limit) {
        pool.jobs.add(job("one", JobState.Queued, 1, NOW.minus(Duration.ofMinutes(20)), new JobTimes(limit, null)));
        return pool;
    }

    private static List<String> drained(PlanResult result) {
        return result.plan().drains().stream().map(Plan.DrainRequest::node).toList();
    }

    @Test
    void aFreeNodeIsNotKeptForAJobTheSchedulerHoldsBehindAReservation() {
        PlanResult result = behind(pool("backfill", Duration.ofHours(1)), Duration.ofHours(2)).plan();
        assertEquals(List.of(node(2)), drained(result), "the two-hour job would delay the wide job's reservation");
        assertTrue(result.plan().starts().isEmpty());
        assertEquals(null, result.waitReasons().jobs().get("one"), "the scheduler's own reason says it waits: "
                + "a comment on every held job would be rewritten as often as jobs start");
        assertEquals(List.of("1 queued job needs more nodes than the pool's max of 4 allows"), result.plan().notes()
                .stream().filter(n -> n.kind() == EventKind.AT_MAX).map(Plan.Note::message).toList(),
                "the wide job does not fit the pool at its max, held back or not");
    }

    @Test
    void everyQueuedJobThatFitsKeepsItsNodeByDefault() {
        PlanResult result = behind(pool("queued", Duration.ofHours(1)), Duration.ofHours(2)).plan();
        assertEquals(List.of(), drained(result));
    }

    @Test
    void aJobThatEndsBeforeTheReservationKeepsItsNode() {
        PlanResult result = behind(pool("backfill", Duration.ofHours(1)), Duration.ofMinutes(45)).plan();
        assertEquals(List.of(), drained(result), "45 minutes end before the running job's 50 do");
    }

    @Test
    void aRunningJobThatWasSuspendedEndsWhenItsSchedulerSaysNotAtItsStartPlusItsLimit() {
        PoolStateBuilder pool = behind(pool("backfill", Duration.ofHours(1)), Duration.ofMinutes(45));
        pool.jobs.replaceAll(j -> j.schedulerId().equals("r1") ? job("r1", JobState.Running, 1, j.submittedAt(),
                new JobTimes(Duration.ofHours(1), NOW.minus(RUNNING_FOR), NOW.plus(Duration.ofMinutes(40)))) : j);

        assertEquals(List.of(node(2)), drained(pool.plan()), "suspended 10 minutes, the running job ends in 40: the "
                + "45-minute job would delay the wide job's reservation");
    }

    @Test
    void aJobWithoutALimitKeepsItsNode() {
        assertEquals(List.of(), drained(behind(pool("backfill", Duration.ofHours(1)), null).plan()));
    }

    @Test
    void aRunningJobWithoutALimitLeavesNothingHeldButTheWideJob() {
        PlanResult result = behind(pool("backfill", null), Duration.ofHours(2)).plan();
        assertEquals(List.of(), drained(result));
    }

    @Test
    void aJobOnANodeThatNoJobsDocumentNamesFreesItsNodeAtATimeNotForeseen() {
        PoolStateBuilder pool = behind(pool("backfill", Duration.ofHours(1)), Duration.ofHours(2));
        pool.jobs.removeIf(j -> j.schedulerId().equals("r1"));
        assertEquals(List.of(), drained(pool.plan()), "no reservation can be foreseen: the two-hour job is demand");
    }

    @Test
    void aNodeAJobHoldsExclusivelyFreesAllItsCpusAtTheJobsEnd() {
        PoolStateBuilder pool = behind(pool("backfill", Duration.ofHours(1)), Duration.ofHours(2));
        pool.replaceVm(1, new VmDocument(node(1), "p", node(1), NodeJobStatus.Busy, "job-exclusive", false, false,
                false, true, 16, 1, 65536, 0, 0, 0, List.of("r1"), NOW.minusSeconds(600), NOW.minusSeconds(60), null,
                "agent-h-pbs"));
        assertEquals(List.of(node(2)), drained(pool.plan()), "one CPU in use, sixteen held until the job ends");
    }

    @Test
    void nothingIsHeldWhileAJobHasPartOfANodeAsCpuCountsCannotSayWhereJobsFit() {
        PoolStateBuilder partly = behind(pool("backfill", Duration.ofHours(1)), Duration.ofHours(2));
        partly.replaceVm(1, PoolStateBuilder.vm(1, NodeJobStatus.Busy, 8, List.of("r1"), false, false,
                NOW.minusSeconds(600), null));
        assertEquals(List.of(), drained(partly.plan()), "a running job on half a node");
    }

    @Test
    void theWideJobStartsNodesOnceTheRunningJobHasEnded() {
        PoolStateBuilder pool = pool("backfill", Duration.ofHours(1));
        pool.jobs.removeIf(j -> j.schedulerId().equals("r1"));
        pool.replaceVm(1, PoolStateBuilder.vm(1, NodeJobStatus.Free, 0, List.of(), false, false, NOW, null));
        assertEquals(2, pool.plan().plan().starts().size());
    }

    @Test
    void isRefusedWhereThePoolDoesNotFollowItsQueuedJobs() {
        PoolStateBuilder fixed = pool("backfill", null).fixed(2, "lazy");
        ConfigException e = assertThrows(ConfigException.class, fixed::config);
        assertTrue(e.getMessage().contains("pool.p.demand = backfill applies to a pool that follows its queued jobs"),
                e.getMessage());
        PoolStateBuilder following = pool("backfill", null);
        following.extraSettings.putAll(Map.of("followPowerRequests", "true"));
        following.powerSaving = true;
        assertThrows(ConfigException.class, following::config);
    }
}
