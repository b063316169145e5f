package io.hpcscale.common.model;

import java.time.Duration;
import java.time.Instant;

/**
 * What a job says of its time, as backfilling plans with it: the run time it asked for, when it started, and when its
 * scheduler expects it to end.
 *
 * @param limit     the run time the job asked for (Slurm's time limit, PBS's {@code walltime}), or null when it asked
 *                  for none or it is unlimited: its end cannot be foreseen
 * @param startedAt when a running job started, or null
 * @param endsAt    when the scheduler itself expects the running job to end at the latest, its suspensions counted
 *                  (Slurm's EndTime moves on by the time a job was suspended), or null when it does not say
 */
public record JobTimes(Duration limit, Instant startedAt, Instant endsAt) {
    /** Nothing said: the job's end cannot be foreseen. */
    public static final JobTimes UNKNOWN = new JobTimes(null, null, null);

    public JobTimes {
        if (limit != null && limit.isNegative()) {
            throw new IllegalArgumentException("a job's time limit cannot be negative: " + limit);
        }
    }

    /** A scheduler that does not say when a job ends: its start and limit tell. */
    public JobTimes(Duration limit, Instant startedAt) {
        this(limit, startedAt, null);
    }

    /**
     * When the running job is expected to end at the latest: when its scheduler says, else its start plus its limit;
     * null when that cannot be foreseen.
     */
    public Instant expectedEnd() {
        if (limit == null || startedAt == null) {
            return null;
        }
        return endsAt != null ? endsAt : startedAt.plus(limit);
    }
}
