package io.hpcscale.common.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/** Cosmos DB's per-document {@code ttl} (seconds), honoured the same way by the embedded stores. */
final class Ttl {
    private Ttl() {
    }

    /** When the document expires, or null if it lives until deleted. */
    static Instant expiresAt(JsonNode json, Instant now) {
        JsonNode ttl = json.get("ttl");
        if (ttl == null || !ttl.canConvertToLong() || ttl.asLong() <= 0) {
            return null;
        }
        return now.plusSeconds(ttl.asLong());
    }
}
