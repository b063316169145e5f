package io.hpcscale.common.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
    @Test
    void humanDurationsReadOneWay() {
        assertEquals("0s", Durations.human(Duration.ZERO));
        assertEquals("45s", Durations.human(Duration.ofSeconds(45)));
        assertEquals("5m05s", Durations.human(Duration.ofSeconds(305)));
        assertEquals("5m", Durations.human(Duration.ofMinutes(5)));
        assertEquals("1h00m44s", Durations.human(Duration.ofSeconds(3644)));
        assertEquals("1h16m", Durations.human(Duration.ofMinutes(76)));
        assertEquals("1h", Durations.human(Duration.ofHours(1)));
        assertEquals("26h22m", Durations.human(Duration.ofMinutes(26 * 60 + 22)));
    }
}
