package io.hpcscale.scaler.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.InMemoryClusterLoadStore;
import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.documents.UsageDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UsageRecorderTest {
    private final SettableClock clock = new SettableClock(Instant.parse("2026-11-22T23:58:00Z"));
    private final DocumentStore store = new DocumentStore(new InMemoryClusterLoadStore(clock));
    private final UsageRecorder recorder = new UsageRecorder(store);

    private static PoolCensus census(int busy, int free) {
        return new PoolCensus(Map.of(InstanceCategory.BUSY, busy, InstanceCategory.FREE, free), true, 0, 0, null,
                false, null, List.of(), 0, List.of(), null, List.of());
    }

    private Optional<UsageDocument> day(String day) {
        return store.read(new DocumentKey("p", UsageDocument.idFor("p", java.time.LocalDate.parse(day))),
                UsageDocument.class).map(DocumentStore.Versioned::document);
    }

    @Test
    void addsTheMeanOfTwoSamplesOverTheTimeBetweenThem() {
        recorder.record("p", census(2, 2), clock.instant());
        clock.advance(Duration.ofMinutes(1));
        recorder.record("p", census(0, 2), clock.instant());

        UsageDocument usage = day("2026-11-22").orElseThrow();
        assertEquals(60 * 3, usage.instanceSeconds(), 1e-9, "4 then 2 active over a minute");
        assertEquals(60 * 1, usage.busySeconds(), 1e-9, "2 then 0 busy over a minute");
        assertEquals(2, usage.lastActive());
    }

    @Test
    void samplesAPoolAtMostOnceAMinuteAndCountsTheTimeBetweenAtTheNext() {
        recorder.record("p", census(1, 1), clock.instant());
        Instant first = clock.instant();
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofSeconds(10));
            recorder.record("p", census(1, 1), clock.instant());
        }
        assertEquals(first, day("2026-11-22").orElseThrow().lastSampleAt(), "quick cycles write nothing");
        clock.advance(Duration.ofSeconds(10));
        recorder.record("p", census(1, 1), clock.instant());
        assertEquals(120, day("2026-11-22").orElseThrow().instanceSeconds(), 1e-9, "2 active over the minute");
    }

    @Test
    void aNewDayCarriesOnFromTheLastSampleOfTheDayBefore() {
        recorder.record("p", census(1, 0), clock.instant());
        clock.advance(Duration.ofMinutes(4));
        recorder.record("p", census(1, 0), clock.instant());

        assertEquals(0, day("2026-11-22").orElseThrow().instanceSeconds());
        assertEquals(240, day("2026-11-23").orElseThrow().instanceSeconds(), 1e-9);
    }

    @Test
    void aGapLongerThanSixHoursIsNotCountedAndUnknownInstancesAreNotSampled() {
        recorder.record("p", census(3, 0), clock.instant());
        clock.advance(Duration.ofHours(7));
        recorder.record("p", new PoolCensus(Map.of(), false, 0, 0, null, false, null, List.of(), 0, List.of(), null, List.of()),
                clock.instant());
        assertTrue(day("2026-11-23").isEmpty(), "unknown is not zero: nothing written");

        recorder.record("p", census(3, 0), clock.instant());
        assertEquals(0, day("2026-11-23").orElseThrow().instanceSeconds(), "what ran in 7 hours is not known");
    }
}
