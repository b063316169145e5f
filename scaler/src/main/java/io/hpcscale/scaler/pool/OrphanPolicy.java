package io.hpcscale.scaler.pool;

import java.time.Duration;

/**
 * When a running instance that hpcscale did not start and whose node no agent reports is an orphan
 * ({@code orphanAfter}), and whether the pool stops orphans ({@code stopOrphans}) or only says so.
 */
public record OrphanPolicy(Duration after, boolean stop) {
}
