package io.hpcscale.scaler.pool;

import java.time.Duration;

/**
 * When Spot evictions stop being chased: {@code rounds} cycles that found evictions within {@code window} put the
 * pool in backoff. One storm is one round and is replaced at once.
 */
public record EvictionBackoff(int rounds, Duration window) {
}
