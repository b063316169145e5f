package io.hpcscale.scaler.pool;

import java.time.Duration;
import java.util.Objects;

/**
 * One pool's scaling settings.
 *
 * @param bootFailuresBeforeBackoff failed boots in a row that put the pool in backoff
 * @param capacityBackoff           how long the pool starts nothing after a capacity or quota error
 * @param slurmPowerSaving          start and stop what Slurm's power saving asks for, and plan nothing itself
 */
public record PoolConfig(
        String name,
        VmShape shape,
        int min,
        int max,
        Duration idleTimeout,
        Duration bootTimeout,
        boolean countHeldJobs,
        StopAction stopAction,
        int maxStartPerCycle,
        int maxStopPerCycle,
        int bootFailuresBeforeBackoff,
        Duration capacityBackoff,
        boolean slurmPowerSaving) {

    /** A pool the scaler plans itself, from demand and idleness. */
    public PoolConfig(String name, VmShape shape, int min, int max, Duration idleTimeout, Duration bootTimeout,
            boolean countHeldJobs, StopAction stopAction, int maxStartPerCycle, int maxStopPerCycle,
            int bootFailuresBeforeBackoff, Duration capacityBackoff) {
        this(name, shape, min, max, idleTimeout, bootTimeout, countHeldJobs, stopAction, maxStartPerCycle,
                maxStopPerCycle, bootFailuresBeforeBackoff, capacityBackoff, false);
    }

    public PoolConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(shape, "shape");
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("pool " + name + ": need 0 <= min <= max, have min " + min
                    + " and max " + max);
        }
    }
}
