package io.hpcscale.scaler.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.JobTimes;
import io.hpcscale.common.model.Placement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimeLimitsTest {
    private static final Instant T = Instant.parse("2026-11-28T08:00:00Z");

    private static JobDocument job(String id, JobState state, JobTimes times) {
        return new JobDocument(id, "hb", id, "hbq", state, 1, List.of(new Chunk(1, 16, 0, 0)), Placement.free, false,
                T, "agent-head-slurm", null, null, times);
    }

    @Test
    void aPoolWhoseJobsGiveNoTimeLimitIsAProblemSayingWhatToSet() {
        Finding finding = TimeLimits.of("hb", List.of(job("1", JobState.Queued, JobTimes.UNKNOWN),
                job("2", JobState.Running, new JobTimes(null, T))));
        assertFalse(finding.ok());
        assertTrue(finding.sentence().startsWith("jobs: demand = backfill: 0 of 1 queued job in pool hb give a time "
                + "limit, and 0 of 1 running job a limit and a start, so every queued job counts as demand"),
                finding.sentence());
        assertTrue(finding.sentence().contains("DefaultTime"), finding.sentence());
    }

    @Test
    void somePoolsJobsWithALimitAreEnoughAndTheRestSaidToCount() {
        Finding finding = TimeLimits.of("hb", List.of(job("1", JobState.Queued, JobTimes.UNKNOWN),
                job("2", JobState.Queued, new JobTimes(Duration.ofHours(1), null)),
                job("3", JobState.Running, new JobTimes(Duration.ofHours(1), T))));
        assertTrue(finding.ok());
        assertEquals("jobs: demand = backfill: 1 of 2 queued jobs in pool hb give a time limit, and 1 of 1 running job "
                + "a limit and a start; a queued job without one counts as demand whenever it fits",
                finding.sentence());
    }

    @Test
    void runningJobsWithoutAnEndLeaveNoReservationToForeseeAndAreAProblemToo() {
        Finding finding = TimeLimits.of("hb", List.of(job("1", JobState.Queued, new JobTimes(Duration.ofHours(1),
                null)), job("2", JobState.Running, new JobTimes(null, T))));
        assertFalse(finding.ok());
        assertTrue(finding.sentence().contains("no running job's end can be foreseen"), finding.sentence());
    }

    @Test
    void anEmptyPoolIsNoProblem() {
        assertTrue(TimeLimits.of("hb", List.of()).ok());
    }
}
