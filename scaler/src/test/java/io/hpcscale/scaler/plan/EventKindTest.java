package io.hpcscale.scaler.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class EventKindTest {

    @Test
    void everyKindIsKnownByTheNameEventsAndLogLinesCarry() {
        for (EventKind kind : EventKind.values()) {
            assertEquals(kind.wireName(), kind.toString());
            assertEquals(Optional.of(kind), EventKind.fromWireName(kind.wireName()));
        }
        assertEquals("boot-timeout", EventKind.BOOT_TIMEOUT.toString());
        assertEquals(Optional.empty(), EventKind.fromWireName("BOOT_TIMEOUT"));
    }

    @Test
    void aNoteRecordsARefusalOrAConditionNeverAnAction() {
        for (EventKind kind : EventKind.values()) {
            if (kind.action()) {
                assertThrows(IllegalArgumentException.class, () -> new Plan.Note(kind, "started p_1"), kind.name());
            } else {
                assertEquals(kind, new Plan.Note(kind, "why").kind());
            }
        }
        assertThrows(IllegalArgumentException.class, () -> new Plan.Note(EventKind.STOP, "stopped p_1"));
    }
}
