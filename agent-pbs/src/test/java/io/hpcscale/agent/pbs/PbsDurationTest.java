package io.hpcscale.agent.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class PbsDurationTest {
    @Test
    void readsEveryFormOfTheDurationFormat() {
        assertEquals(Duration.ofMinutes(5), PbsDuration.parse("00:05:00"));
        assertEquals(Duration.ofHours(48), PbsDuration.parse("48:00:00"), "hours beyond a day");
        assertEquals(Duration.ofMinutes(30), PbsDuration.parse("30:00"));
        assertEquals(Duration.ofHours(1), PbsDuration.parse("3600"));
        assertEquals(Duration.ofMillis(1500), PbsDuration.parse("1.5"));
    }

    @Test
    void whatIsNotADurationIsNone() {
        for (String text : new String[] {null, "", "1:2:3:4", "ten", "-5", "1:-2:00", "5d", "0x10p0", "5:",
                "99999999999999999999", "9223372036854775807:00:00"}) {
            assertNull(PbsDuration.parse(text), String.valueOf(text));
        }
    }
}
