package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.hpcscale.common.model.DocumentKey;

/** Reads the key fields every stored document must carry. */
public final class DocumentKeys {
    private DocumentKeys() {
    }

    public static DocumentKey of(JsonNode json) {
        return new DocumentKey(required(json, "PoolName"), required(json, "id"));
    }

    public static String type(JsonNode json) {
        return required(json, "Type");
    }

    private static String required(JsonNode json, String field) {
        JsonNode value = json.get(field);
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException("a document to store has no " + field + ": " + json);
        }
        return value.asText();
    }
}
