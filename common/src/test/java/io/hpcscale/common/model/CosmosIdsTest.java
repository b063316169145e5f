package io.hpcscale.common.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CosmosIdsTest {

    @ParameterizedTest
    @ValueSource(strings = {"4716.pbsserver", "4720[2].pbsserver", "a/b\\c?d#e", "100%done", "%2F", "", "plain"})
    void encodesWithoutForbiddenCharactersAndDecodesBack(String raw) {
        String id = CosmosIds.encode(raw);
        assertFalse(id.contains("/") || id.contains("\\") || id.contains("?") || id.contains("#"), id);
        assertEquals(raw, CosmosIds.decode(id));
    }

    @ParameterizedTest
    @ValueSource(strings = {"4716.pbsserver", "node001", "5_[4-6%4]"})
    void leavesSafeNamesReadable(String raw) {
        if (!raw.contains("%")) {
            assertEquals(raw, CosmosIds.encode(raw));
        }
    }
}
