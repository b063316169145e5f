package io.hpcscale.scaler.check;

import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.scaler.plan.Words;
import java.util.List;

/**
 * Whether a pool with {@code demand = backfill} has the time limits its forecast reads: a queued job without one counts
 * as demand and a running one without one never frees its nodes in the forecast, so where no job gives one the setting
 * changes nothing, which an administrator who set it would not expect.
 */
public final class TimeLimits {
    private TimeLimits() {
    }

    public static Finding of(String pool, List<JobDocument> jobs) {
        int queued = 0;
        int queuedWithLimit = 0;
        int running = 0;
        int runningWithEnd = 0;
        for (JobDocument job : jobs) {
            if (job.status() == JobState.Queued) {
                queued++;
                queuedWithLimit += job.times().limit() != null ? 1 : 0;
            } else if (job.status() == JobState.Running) {
                running++;
                runningWithEnd += job.times().expectedEnd() != null ? 1 : 0;
            }
        }
        String counts = "demand = backfill: " + queuedWithLimit + " of " + Words.count(queued, "queued job")
                + " in pool " + pool + " give a time limit, and " + runningWithEnd + " of "
                + Words.count(running, "running job") + " a limit and a start";
        if ((queued > 0 && queuedWithLimit == 0) || (running > 0 && runningWithEnd == 0)) {
            return Finding.problem("jobs: " + counts + ", so " + (queued > 0 && queuedWithLimit == 0
                    ? "every queued job counts as demand" : "no running job's end can be foreseen, and every "
                    + "queued job that fits counts as demand") + ", as with demand = queued. Have jobs ask for one (Slurm --time, "
                    + "PBS -l walltime) or give the queue a default (Slurm's partition DefaultTime, PBS's "
                    + "resources_default.walltime)");
        }
        return Finding.ok("jobs: " + counts + (queuedWithLimit < queued ? "; a queued job without one counts as "
                + "demand whenever it fits" : ""));
    }
}
