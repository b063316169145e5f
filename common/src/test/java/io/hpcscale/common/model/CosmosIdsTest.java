package io.hpcscale.common.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CosmosIdsTest {

    @ParameterizedTest
    @ValueSource(strings = {"4716.pbsserver", "4720[2].pbsserver", "a/b\\c?d#e", "100%done", "12[%3].pbsserver",
        "%2F", "~7E", "", "plain", "job with spaces"})
    void encodesWithoutAnyCharacterARealAccountRefuses(String raw) {
        String id = CosmosIds.encode(raw);
        for (String refused : List.of("/", "\\", "?", "#", "%")) {
            assertFalse(id.contains(refused), id);
        }
    }

    @Test
    void twoNamesNeverShareAnId() {
        List<String> names = List.of("a%25", "a%", "a~25", "a~", "a/", "a~2F", "a%2F", "a\\", "a?", "a#", "a",
                "a~7E", "a~7E2F");
        Set<String> ids = new HashSet<>();
        for (String name : names) {
            assertTrue(ids.add(CosmosIds.encode(name)), name + " -> " + CosmosIds.encode(name));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"4716.pbsserver", "node001", "5_[4-6]", "job with spaces"})
    void leavesSafeNamesReadable(String raw) {
        assertEquals(raw, CosmosIds.encode(raw));
    }

    @Test
    void aNameTooLongForAnIdIsShortenedToAStableUniqueId() {
        String longName = "x".repeat(600) + "/" + "y".repeat(600);
        String other = "x".repeat(600) + "/" + "y".repeat(599) + "z";
        String id = CosmosIds.encode(longName);
        assertTrue(id.getBytes(StandardCharsets.UTF_8).length < CosmosIds.MAX_BYTES - 100, id);
        assertTrue(id.startsWith("x".repeat(100)) && id.contains("~~"), id);
        assertEquals(id, CosmosIds.encode(longName));
        assertNotEquals(id, CosmosIds.encode(other));
    }

    @Test
    void aShortenedIdNeverCutsAnEscapeInHalf() {
        String name = "a".repeat(199) + "/".repeat(400);
        String id = CosmosIds.encode(name);
        String head = id.substring(0, id.indexOf("~~"));
        assertTrue(head.equals("a".repeat(199)) || head.matches("a{199}(~2F)*"), head);
    }
}
