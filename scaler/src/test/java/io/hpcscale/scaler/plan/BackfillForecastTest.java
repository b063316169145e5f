package io.hpcscale.scaler.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.scaler.plan.BackfillForecast.Queued;
import io.hpcscale.scaler.plan.BackfillForecast.Release;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BackfillForecastTest {
    private static final Instant NOW = Instant.parse("2026-11-28T09:00:00Z");

    private static Queued job(String id, long cpus, Duration limit) {
        return new Queued(id, cpus, limit);
    }

    @Test
    void holdsNothingWhenEveryJobFitsThePoolAtItsMax() {
        assertEquals(Demand.Reservation.NONE, BackfillForecast.of(List.of(job("a", 16, null), job("b", 32, null)),
                64, List.of(new Release(64, NOW.plusSeconds(60), true)), NOW));
    }

    @Test
    void aJobThatWouldDelayTheFirstBlockedJobsReservationIsHeldAndOneThatEndsBeforeItIsNot() {
        // 32 CPUs free at max; 64 more free in an hour; the wide job needs 96 and reserves the hour.
        Demand.Reservation reservation = BackfillForecast.of(List.of(
                        job("wide", 96, Duration.ofHours(4)),
                        job("long", 16, Duration.ofHours(2)),
                        job("short", 16, Duration.ofMinutes(30))),
                32, List.of(new Release(64, NOW.plus(Duration.ofHours(1)), true)), NOW);
        assertEquals(new Demand.Reservation("wide", NOW.plus(Duration.ofHours(1)), Set.of("wide", "long")),
                reservation);
    }

    @Test
    void aLaterJobMayTakeWhatTheReservationLeavesOverWhateverItsLength() {
        // At the reservation 112 CPUs are free for a job of 96: 16 spare, which the long job may take.
        Demand.Reservation reservation = BackfillForecast.of(List.of(
                        job("wide", 96, null),
                        job("long", 16, Duration.ofHours(9)),
                        job("longer", 16, Duration.ofHours(9))),
                48, List.of(new Release(64, NOW.plus(Duration.ofHours(1)), true)), NOW);
        assertEquals(Set.of("wide", "longer"), reservation.held());
    }

    @Test
    void aJobWithoutALimitIsTakenToEndBeforeTheReservation() {
        Demand.Reservation reservation = BackfillForecast.of(List.of(job("wide", 96, null), job("unknown", 16, null)),
                32, List.of(new Release(64, NOW.plus(Duration.ofHours(1)), true)), NOW);
        assertEquals(Set.of("wide"), reservation.held());
    }

    @Test
    void runningJobsWhoseEndCannotBeForeseenLeaveNoReservationToProtect() {
        Demand.Reservation reservation = BackfillForecast.of(List.of(job("wide", 96, null),
                job("long", 16, Duration.ofDays(2))), 32, List.of(new Release(64, null, false)), NOW);
        assertEquals(new Demand.Reservation("wide", null, Set.of("wide")), reservation);
    }

    @Test
    void cpusWhoseEndIsUnknownCountAsSpareSoTheyHoldNoJobTheReservationMightLeaveRoomFor() {
        // 4 CPUs free; A's 16 end within the hour, B's 4 in ten. Known, the reservation of the 8-CPU job is in an
        // hour with 12 spare, and the 12-hour job of 4 starts; A's end unknown, it would be in ten hours with none.
        List<Queued> queue = List.of(job("head", 8, null), job("twelve-hours", 4, Duration.ofHours(12)));
        Release b = new Release(4, NOW.plus(Duration.ofHours(10)), true);
        assertEquals(Set.of("head"), BackfillForecast.of(queue, 4,
                List.of(new Release(16, NOW.plus(Duration.ofHours(1)), true), b), NOW).held());
        assertEquals(Set.of("head"), BackfillForecast.of(queue, 4, List.of(new Release(16, null, false), b), NOW)
                .held());
        assertEquals(Set.of("head"), BackfillForecast.of(queue, 4,
                List.of(new Release(16, NOW.plus(Duration.ofHours(11)), false), b), NOW).held(),
                "a node's last end, some of whose CPUs may free sooner");
    }

    @Test
    void aJobPastItsLimitIsAboutToEndSoTheReservationIsNow() {
        Demand.Reservation reservation = BackfillForecast.of(List.of(job("wide", 96, null),
                job("tiny", 16, Duration.ofMinutes(1))), 32, List.of(new Release(64, NOW.minusSeconds(90), true)), NOW);
        assertEquals(NOW, reservation.at());
        assertEquals(Set.of("wide", "tiny"), reservation.held(), "nothing ends before a reservation that is now");
    }

    @Test
    void theJobsStartedAheadOfTheBlockedOneFreeTheirCpusAtTheirOwnLimits() {
        // "first" starts on the 32 free CPUs and ends in 20 minutes; the wide job's reservation is then, not in an hour.
        Demand.Reservation reservation = BackfillForecast.of(List.of(
                        job("first", 32, Duration.ofMinutes(20)),
                        job("wide", 64, null),
                        job("half-hour", 16, Duration.ofMinutes(30))),
                64, List.of(new Release(32, NOW.plus(Duration.ofHours(1)), true)), NOW);
        assertEquals(NOW.plus(Duration.ofMinutes(20)), reservation.at());
        assertEquals(Set.of("wide", "half-hour"), reservation.held());
    }
}
