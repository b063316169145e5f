package io.hpcscale.scaler.pool;

import java.util.Objects;

/**
 * A pool of {@code target = fixed}: it keeps a count of instances set from outside rather than what queued jobs need.
 *
 * @param shrink how a lowered target is met when no agent reports the pool's nodes; where the count lives is the
 *               provider's ({@code io.hpcscale.scaler.cloud.CloudModule.Cloud#targetForPool}), else the store's
 */
public record FixedTarget(Shrink shrink) {

    public FixedTarget {
        Objects.requireNonNull(shrink, "shrink");
    }

    /** What may be stopped when the target is lowered and hpcscale cannot see the nodes' jobs. */
    public enum Shrink {
        /** Nothing: evictions and nodes that remove themselves bring the pool down. */
        LAZY,
        /** Instances still booting, newest first; never a running one. */
        IDLE_FIRST;

        public static Shrink fromSetting(String value) {
            return switch (value) {
                case "lazy" -> LAZY;
                case "idle-first" -> IDLE_FIRST;
                default -> throw new IllegalArgumentException("no shrink mode " + value);
            };
        }
    }
}
