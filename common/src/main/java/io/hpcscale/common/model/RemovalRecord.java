package io.hpcscale.common.model;

import java.time.Instant;
import java.util.Objects;

/**
 * An instance a node (or a render manager) asked to remove, kept after the instance is gone so that the message,
 * delivered at least once, is carried out once: a second delivery finds the record and only deletes the message.
 *
 * @param at          when the scaler took the request on
 * @param targetAfter the fixed pool's count once this instance is gone, or null for a pool without one; written as
 *                    this absolute value, so writing it again after a crash lowers nothing twice
 * @param lowered     the count has been written (or there is none to write)
 */
public record RemovalRecord(Instant at, Integer targetAfter, boolean lowered) {

    public RemovalRecord {
        Objects.requireNonNull(at, "at");
    }

    public RemovalRecord asLowered() {
        return new RemovalRecord(at, targetAfter, true);
    }
}
