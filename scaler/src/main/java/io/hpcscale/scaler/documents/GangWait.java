package io.hpcscale.scaler.documents;

import java.time.Instant;
import java.util.Objects;

/**
 * A job that needs all its nodes at once in one placement group (a gang), waiting for the nodes hpcscale started
 * for it: the clock by which nodes that did not all come are given back. It lives in the pool's state, so a
 * restarted scaler keeps the time.
 *
 * @param askedAt     when nodes were first started for it
 * @param nodes       how many it needs
 * @param givenBackAt when its nodes were given back because not all came within the pool's gang timeout, or null;
 *                    it is tried again after the pool's capacity backoff
 */
public record GangWait(Instant askedAt, int nodes, Instant givenBackAt) {
    public GangWait {
        Objects.requireNonNull(askedAt, "askedAt");
    }
}
