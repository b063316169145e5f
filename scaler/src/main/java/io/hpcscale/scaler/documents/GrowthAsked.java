package io.hpcscale.scaler.documents;

import java.time.Instant;
import java.util.Objects;

/**
 * A part of a pool (a scale set of a pool spread over several) asked to grow: the clock by which one that never
 * reaches what it was asked is sealed. It lives in the pool's state, so a restarted scaler still seals it in time.
 *
 * @param at       when the growth was asked
 * @param capacity the instances it was asked to run
 */
public record GrowthAsked(Instant at, int capacity) {

    public GrowthAsked {
        Objects.requireNonNull(at, "at");
    }
}
