package io.hpcscale.common.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/** Writes the values the JSON tree has no type for; a null is written as null, and left out when stored. */
public final class FieldWriter {
    private FieldWriter() {
    }

    public static void putInstant(ObjectNode json, String field, Instant value) {
        if (value == null) {
            json.putNull(field);
        } else {
            json.put(field, InstantText.format(value));
        }
    }

    public static void putInteger(ObjectNode json, String field, Integer value) {
        if (value == null) {
            json.putNull(field);
        } else {
            json.put(field, value);
        }
    }
}
