package io.hpcscale.common.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class InstantTextTest {

    @Property(tries = 3000)
    void writesWhatTheJdkWritesAndReadsItBack(@ForAll("instants") Instant instant) {
        assertEquals(instant.toString(), InstantText.format(instant));
        assertEquals(instant, InstantText.parse(instant.toString()));
    }

    @Property(tries = 3000)
    void acceptsAndRefusesWhatTheJdkDoesForAnyNearlyCanonicalText(@ForAll("nearlyCanonical") String text) {
        Instant expected;
        try {
            expected = Instant.parse(text);
        } catch (DateTimeParseException e) {
            assertThrows(DateTimeParseException.class, () -> InstantText.parse(text), text);
            return;
        }
        assertEquals(expected, InstantText.parse(text), text);
    }

    @Property(tries = 200)
    void leavesYearsOutsideFourDigitsToTheJdk(@ForAll @LongRange(min = -1_000_000, max = 1_000_000) long days) {
        Instant far = Instant.parse("+12000-01-01T00:00:00Z").plusSeconds(days * 86_400);
        assertEquals(far.toString(), InstantText.format(far));
        assertEquals(far, InstantText.parse(far.toString()));
    }

    @Test
    void refusesADayTheMonthDoesNotHaveAsTheJdkDoes() {
        assertThrows(DateTimeException.class, () -> InstantText.parse("2026-02-29T00:00:00Z"));
        assertEquals(Instant.parse("2028-02-29T00:00:00Z"), InstantText.parse("2028-02-29T00:00:00Z"));
    }

    @Provide
    Arbitrary<Instant> instants() {
        Arbitrary<Long> seconds = Arbitraries.longs().between(Instant.parse("0000-01-01T00:00:00Z").getEpochSecond(),
                Instant.parse("9999-12-31T23:59:59Z").getEpochSecond());
        Arbitrary<Integer> nanos = Arbitraries.oneOf(Arbitraries.just(0),
                Arbitraries.integers().between(0, 999).map(n -> n * 1_000_000),
                Arbitraries.integers().between(0, 999_999).map(n -> n * 1_000),
                Arbitraries.integers().between(0, 999_999_999));
        return seconds.flatMap(s -> nanos.map(n -> Instant.ofEpochSecond(s, n)));
    }

    /** A canonical instant with one character replaced, inserted or removed. */
    @Provide
    Arbitrary<String> nearlyCanonical() {
        Arbitrary<Character> replacement = Arbitraries.of('0', '1', '2', '3', '5', '9', ':', '-', '.', 'T', 'Z',
                't', 'z', '+', ' ', 'x');
        return instants().map(Instant::toString).flatMap(text -> Arbitraries.integers().between(0, text.length() - 1)
                .flatMap(at -> replacement.flatMap(c -> Arbitraries.of(
                        text.substring(0, at) + c + text.substring(at + 1),
                        text.substring(0, at) + c + text.substring(at),
                        text.substring(0, at) + text.substring(at + 1)))));
    }
}
