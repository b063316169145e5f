package io.hpcscale.common.model;

import java.time.Duration;
import java.time.Instant;

/**
 * What a job says of its time, as backfilling plans with it: the run time it asked for, and when it started.
 *
 * @param limit     the run time the job asked for (Slurm's time limit, PBS's {@code walltime}), or null when it asked
 *                  for none or it is unlimited: its end cannot be foreseen
 * @param startedAt when a running job started, or null
 */
public record JobTimes(Duration limit, Instant startedAt) {
    /** Nothing said: the job's end cannot be foreseen. */
    public static final JobTimes UNKNOWN = new JobTimes(null, null);

    public JobTimes {
        if (limit != null && limit.isNegative()) {
            throw new IllegalArgumentException("a job's time limit cannot be negative: " + limit);
        }
    }

    /** When the scheduler expects the running job to end at the latest, or null when that cannot be foreseen. */
    public Instant expectedEnd() {
        return limit == null || startedAt == null ? null : startedAt.plus(limit);
    }
}
