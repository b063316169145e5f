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
                64, List.of(new Release(64, NOW.plusSeconds(60))), NOW));
    }

    @Test
    void aJobThatWouldDelayTheFirstBlockedJobsReservationIsHeldAndOneThatEndsBeforeItIsNot() {
        // 32 CPUs free at max; 64 more free in an hour; the wide job needs 96 and reserves the hour.
        Demand.Reservation reservation = BackfillForecast.of(List.of(
                        job("wide", 96, Duration.ofHours(4)),
                        job("long", 16, Duration.ofHours(2)),
                        job("short", 16, Duration.ofMinutes(30))),
                32, List.of(new Release(64, NOW.plus(Duration.ofHours(1)))), NOW);
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
                48, List.of(new Release(64, NOW.plus(Duration.ofHours(1)))), NOW);
        assertEquals(Set.of("wide", "longer"), reservation.held());
    }

    @Test
    void aJobWithoutALimitIsTakenToEndBeforeTheReservation() {
        Demand.Reservation reservation = BackfillForecast.of(List.of(job("wide", 96, null), job("unknown", 16, null)),
                32, List.of(new Release(64, NOW.plus(Duration.ofHours(1)))), NOW);
        assertEquals(Set.of("wide"), reservation.held());
    }

    @Test
    void runningJobsWhoseEndCannotBeForeseenLeaveNoReservationToProtect() {
        Demand.Reservation reservation = BackfillForecast.of(List.of(job("wide", 96, null),
                job("long", 16, Duration.ofDays(2))), 32, List.of(new Release(64, null)), NOW);
        assertEquals(new Demand.Reservation("wide", null, Set.of("wide")), reservation);
    }

    @Test
    void aJobPastItsLimitIsAboutToEndSoTheReservationIsNow() {
        Demand.Reservation reservation = BackfillForecast.of(List.of(job("wide", 96, null),
                job("tiny", 16, Duration.ofMinutes(1))), 32, List.of(new Release(64, NOW.minusSeconds(90))), NOW);
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
                64, List.of(new Release(32, NOW.plus(Duration.ofHours(1)))), NOW);
        assertEquals(NOW.plus(Duration.ofMinutes(20)), reservation.at());
        assertEquals(Set.of("wide", "half-hour"), reservation.held());
    }
}
