package io.hpcscale.common.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OfflineMarkerTest {

    @Test
    void recognisesOnlyItsOwnMark() {
        assertTrue(OfflineMarker.isOurs(OfflineMarker.comment("idle for 7m", 80)));
        assertTrue(OfflineMarker.isOurs("was: hpcscale: idle for 7m"), "PBS may keep text around the mark");
        assertFalse(OfflineMarker.isOurs("disk replaced, back Monday -- ops"));
        assertFalse(OfflineMarker.isOurs(""));
        assertFalse(OfflineMarker.isOurs(null), "a node offline without a comment was taken out by someone else");
    }

    @Test
    void signsTheReasonAndSaysScaleDownWhenThereIsNone() {
        assertEquals("hpcscale: idle for 7m", OfflineMarker.comment("  idle for 7m ", 80));
        assertEquals("hpcscale: scale-down", OfflineMarker.comment(null, 80));
        assertEquals("hpcscale: scale-down", OfflineMarker.comment(" ", 80));
    }

    @Test
    void aCommentCutToTheSchedulersLimitIsStillRecognised() {
        String cut = OfflineMarker.comment("idle for 7m (idle timeout 5m), not needed by 0 queued jobs", 16);
        assertEquals("hpcscale: idle f", cut);
        assertTrue(OfflineMarker.isOurs(cut));
    }

    @Test
    void aCommentOfExactlyTheLimitIsKeptWhole() {
        assertEquals("hpcscale: idle", OfflineMarker.comment("idle", 14));
    }

    @Test
    void theMarkOfANodeComesFromItsOfflineFlagAndItsComment() {
        assertEquals(OfflineMark.NONE, OfflineMarker.markOf(false, "hpcscale: idle"), "in service: no mark at all");
        assertEquals(OfflineMark.UNMARKED, OfflineMarker.markOf(true, null));
        assertEquals(OfflineMark.UNMARKED, OfflineMarker.markOf(true, "  "), "a restart leaves a blank comment");
        assertEquals(OfflineMark.HPCSCALE, OfflineMarker.markOf(true, "hpcscale: idle for 7m"));
        assertEquals(OfflineMark.OTHER, OfflineMarker.markOf(true, "bad DIMM -- ops"));
    }
}
