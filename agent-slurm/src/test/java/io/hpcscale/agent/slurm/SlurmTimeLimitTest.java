package io.hpcscale.agent.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SlurmTimeLimitTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void readsEveryShapeSqueuePrintsALimitIn() {
        assertEquals(Duration.ofMinutes(10), SlurmTimeLimit.fromText("10:00"));
        assertEquals(Duration.ofHours(2).plusMinutes(3).plusSeconds(4), SlurmTimeLimit.fromText("2:03:04"));
        assertEquals(Duration.ofDays(1).plusHours(2), SlurmTimeLimit.fromText("1-02:00:00"));
        assertEquals(Duration.ofMinutes(45), SlurmTimeLimit.fromText("45"));
    }

    @Test
    void anUnlimitedUnsetOrUnreadableLimitIsNone() {
        for (String text : new String[] {"UNLIMITED", "NOT_SET", "INVALID", "1:2:3:4", "1-x", null}) {
            assertNull(SlurmTimeLimit.fromText(text), String.valueOf(text));
        }
    }

    @Test
    void readsJsonMinutesAndTakesNullAsNone() throws Exception {
        assertEquals(Duration.ofMinutes(10), SlurmTimeLimit.fromJson(JSON.readTree("10")), "22.05");
        assertNull(SlurmTimeLimit.fromJson(JSON.readTree("null")));
        assertNull(SlurmTimeLimit.fromJson(JSON.readTree("\"UNLIMITED\"")));
        assertNull(SlurmTimeLimit.fromJson(null));
    }
}
