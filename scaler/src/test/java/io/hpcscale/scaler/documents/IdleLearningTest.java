package io.hpcscale.scaler.documents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class IdleLearningTest {
    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    @Test
    void aFirstLookRecordsTheLatestSubmissionButNoGap() {
        IdleLearning learnt = IdleLearning.NONE.withSubmissions(List.of(NOW.minusSeconds(900), NOW.minusSeconds(60)),
                NOW);
        assertEquals(NOW.minusSeconds(60), learnt.lastArrivalAt());
        assertEquals(List.of(), learnt.arrivalGaps());
    }

    @Test
    void countsSubmissionsInTheSameSecondOnceAndIgnoresThoseAlreadySeen() {
        IdleLearning start = new IdleLearning(NOW.minusSeconds(100), List.of(), List.of());
        IdleLearning learnt = start.withSubmissions(List.of(NOW.minusSeconds(200), NOW.minusSeconds(100),
                NOW.minusSeconds(40), NOW.minusSeconds(40).plusMillis(300), NOW.minusSeconds(10)), NOW);
        assertEquals(List.of(60L, 30L), learnt.arrivalGaps());
        assertEquals(NOW.minusSeconds(10), learnt.lastArrivalAt());
        assertSame(learnt, learnt.withSubmissions(List.of(NOW.minusSeconds(10)), NOW), "nothing new: unchanged");
    }

    @Test
    void leavesOutASubmissionFromAClockFarAheadSoItCannotHideLaterOnes() {
        IdleLearning start = new IdleLearning(NOW.minusSeconds(100), List.of(), List.of());
        IdleLearning learnt = start.withSubmissions(List.of(NOW.plus(Duration.ofHours(2)), NOW.minusSeconds(50)),
                NOW);
        assertEquals(List.of(50L), learnt.arrivalGaps());
        assertEquals(NOW.minusSeconds(50), learnt.lastArrivalAt());
    }

    @Test
    void keepsTheMostRecentGapsAndBoots() {
        IdleLearning learnt = new IdleLearning(NOW.minusSeconds(1_000), List.of(), List.of());
        for (int i = 999; i >= 0; i--) {
            learnt = learnt.withSubmissions(List.of(NOW.minusSeconds(i)), NOW);
        }
        assertEquals(IdleLearning.GAPS_KEPT, learnt.arrivalGaps().size());
        for (int i = 0; i < 30; i++) {
            learnt = learnt.withBoot(Duration.ofSeconds(100 + i));
        }
        assertEquals(IntStream.range(10, 30).mapToObj(i -> 100L + i).toList(), learnt.bootSeconds());
    }
}
