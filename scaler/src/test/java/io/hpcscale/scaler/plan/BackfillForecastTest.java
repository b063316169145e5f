package io.hpcscale.scaler.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.scaler.plan.BackfillForecast.Queued;
import io.hpcscale.scaler.plan.BackfillForecast.Release;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BackfillForecastTest {
    private static final Instant NOW = Instant.parse("2026-11-28T09:00:00Z");
    private static final Duration DAY = Duration.ofDays(1);

    private static Queued job(String id, long cpus, Duration limit) {
        return new Queued(id, cpus, limit);
    }

    @Test
    void holdsNothingWhenEveryJobFitsThePoolAtItsMax() {
        assertEquals(Demand.Reservation.NONE, BackfillForecast.of(List.of(job("a", 16, null), job("b", 32, null)),
                64, List.of(new Release(64, NOW.plusSeconds(60), true)), NOW, DAY));
    }

    @Test
    void aJobThatWouldDelayTheFirstBlockedJobsReservationIsHeldAndOneThatEndsBeforeItIsNot() {
        // 32 CPUs free at max; 64 more free in an hour; the wide job needs 96 and reserves the hour.
        Demand.Reservation reservation = BackfillForecast.of(List.of(
                        job("wide", 96, Duration.ofHours(4)),
                        job("long", 16, Duration.ofHours(2)),
                        job("short", 16, Duration.ofMinutes(30))),
                32, List.of(new Release(64, NOW.plus(Duration.ofHours(1)), true)), NOW, DAY);
        assertEquals(new Demand.Reservation("wide", Set.of("wide", "long")), reservation);
    }

    @Test
    void aLaterJobMayTakeWhatTheReservationLeavesOverWhateverItsLength() {
        // At the reservation 112 CPUs are free for a job of 96: 16 spare, which the long job may take.
        Demand.Reservation reservation = BackfillForecast.of(List.of(
                        job("wide", 96, null),
                        job("long", 16, Duration.ofHours(9)),
                        job("longer", 16, Duration.ofHours(9))),
                48, List.of(new Release(64, NOW.plus(Duration.ofHours(1)), true)), NOW, DAY);
        assertEquals(Set.of("wide", "longer"), reservation.held());
    }

    @Test
    void aJobWithoutALimitIsTakenToEndBeforeTheReservation() {
        Demand.Reservation reservation = BackfillForecast.of(List.of(job("wide", 96, null), job("unknown", 16, null)),
                32, List.of(new Release(64, NOW.plus(Duration.ofHours(1)), true)), NOW, DAY);
        assertEquals(Set.of("wide"), reservation.held());
    }

    @Test
    void runningJobsWhoseEndCannotBeForeseenLeaveNoReservationToProtect() {
        Demand.Reservation reservation = BackfillForecast.of(List.of(job("wide", 96, null),
                job("long", 16, Duration.ofDays(2))), 32, List.of(new Release(64, null, false)), NOW, DAY);
        assertEquals(new Demand.Reservation("wide", Set.of("wide")), reservation);
    }

    @Test
    void cpusWhoseEndIsUnknownCountAsSpareSoTheyHoldNoJobTheReservationMightLeaveRoomFor() {
        // 4 CPUs free; A's 16 end within the hour, B's 4 in ten. Known, the reservation of the 8-CPU job is in an
        // hour with 12 spare, and the 12-hour job of 4 starts; A's end unknown, it would be in ten hours with none.
        List<Queued> queue = List.of(job("head", 8, null), job("twelve-hours", 4, Duration.ofHours(12)));
        Release b = new Release(4, NOW.plus(Duration.ofHours(10)), true);
        assertEquals(Set.of("head"), BackfillForecast.of(queue, 4,
                List.of(new Release(16, NOW.plus(Duration.ofHours(1)), true), b), NOW, DAY).held());
        assertEquals(Set.of("head"), BackfillForecast.of(queue, 4, List.of(new Release(16, null, false), b), NOW, DAY)
                .held());
        assertEquals(Set.of("head"), BackfillForecast.of(queue, 4,
                List.of(new Release(16, NOW.plus(Duration.ofHours(11)), false), b), NOW, DAY).held(),
                "a node's last end, some of whose CPUs may free sooner");
    }

    @Test
    void aJobThatMightTakeTheSpareCpusTakesThemFromNoLaterJobThatMightStartInstead() {
        // The 30-CPU job's reservation is in an hour, with 10 spare CPUs, or 15 if the node of unknown end frees by
        // then. The 12-CPU job starts only in the second case; the 8-CPU one in the first case too.
        List<Release> releases = List.of(new Release(20, NOW.plus(Duration.ofHours(1)), true),
                new Release(5, null, false));
        Demand.Reservation reservation = BackfillForecast.of(List.of(job("head", 30, null),
                job("twelve", 12, Duration.ofHours(2)), job("eight", 8, Duration.ofHours(2))), 20, releases, NOW, DAY);
        assertEquals(Set.of("head"), reservation.held());
        assertEquals(Set.of("head", "twelve"), BackfillForecast.of(List.of(job("head", 30, null),
                job("twelve", 12, Duration.ofHours(2))), 20, List.of(releases.get(0)), NOW, DAY).held(),
                "every end known: 10 spare, and the twelve-CPU job would delay the reservation");
    }

    @Test
    void aReservationBeyondTheSchedulersWindowHoldsBackOnlyItsOwnJob() {
        List<Queued> queue = List.of(job("wide", 96, null), job("long", 16, Duration.ofDays(3)));
        List<Release> releases = List.of(new Release(64, NOW.plus(Duration.ofHours(30)), true));
        assertEquals(Set.of("wide", "long"), BackfillForecast.of(queue, 32, releases, NOW, Duration.ofDays(2)).held());
        assertEquals(Set.of("wide"), BackfillForecast.of(queue, 32, releases, NOW, DAY).held(),
                "Slurm's bf_window of a day does not reach the reservation in 30 hours");
    }

    @Test
    void jobsSubmittedTogetherGoInTheOrderOfTheirIdsNumbers() {
        List<String> ids = new ArrayList<>(List.of("10", "9", "5_10", "5_9", "5_2", "100.pbs", "99.pbs",
                "007"));
        ids.sort(BackfillForecast::compareIds);
        assertEquals(List.of("5_2", "5_9", "5_10", "007", "9", "10", "99.pbs", "100.pbs"), ids);
    }

    @Test
    void aJobPastItsLimitMayRunOnForAnyTimeSoItHoldsNothingBack() {
        List<Release> overrun = List.of(new Release(64, NOW.minusSeconds(90), true));
        Demand.Reservation reservation = BackfillForecast.of(List.of(job("wide", 96, null),
                job("long", 16, Duration.ofHours(5))), 32, overrun, NOW, DAY);
        assertEquals(Set.of("wide"), reservation.held(), "OverTimeLimit, KillWait or a resumed job run on");
    }

    @Test
    void theJobsStartedAheadOfTheBlockedOneFreeTheirCpusAtTheirOwnLimits() {
        // "first" starts on the 32 free CPUs and ends in 20 minutes: the wide job's reservation is then, not in an
        // hour.
        Demand.Reservation reservation = BackfillForecast.of(List.of(
                        job("first", 32, Duration.ofMinutes(20)),
                        job("wide", 64, null),
                        job("half-hour", 16, Duration.ofMinutes(30))),
                64, List.of(new Release(32, NOW.plus(Duration.ofHours(1)), true)), NOW, DAY);
        assertEquals(Set.of("wide", "half-hour"), reservation.held(), "the reservation is in 20 minutes");
    }
}
