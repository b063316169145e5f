package io.hpcscale.scaler.documents;

import java.time.Instant;
import java.util.Objects;

/**
 * An instance a node (or a render manager) asked to remove. The scaler takes a request on by writing this record
 * and only then deletes the message; from then on the record, not the message, drives the removal, and a message
 * delivered again finds it and is only deleted. The record outlives the instance, for later deliveries.
 *
 * @param at          when the scaler took the request on
 * @param requestedBy who asked, as the message says
 * @param lowered     the fixed pool's count has been lowered for it (always true for a pool without a count)
 * @param countFrom   the count read just before lowering it, or null before the lowering began
 * @param countTo     the count written for it, or null before the lowering began: a scaler that finds the count
 *                    still at {@code countFrom} writes {@code countTo} again, one that finds it at {@code countTo}
 *                    knows it was written, and any other value was set by someone since, and stands
 */
public record RemovalRecord(Instant at, String requestedBy, boolean lowered, Integer countFrom, Integer countTo) {

    public RemovalRecord {
        Objects.requireNonNull(at, "at");
    }

    public static RemovalRecord accepted(Instant at, String requestedBy, boolean countToLower) {
        return new RemovalRecord(at, requestedBy, !countToLower, null, null);
    }

    public RemovalRecord lowering(int from, int to) {
        return new RemovalRecord(at, requestedBy, false, from, to);
    }

    public RemovalRecord asLowered() {
        return new RemovalRecord(at, requestedBy, true, countFrom, countTo);
    }

    /** Whether a count read now does not yet reflect this removal, which is then still to be taken off it. */
    public boolean pendingOn(int countRead) {
        return !lowered && (countFrom == null || countRead == countFrom);
    }
}
