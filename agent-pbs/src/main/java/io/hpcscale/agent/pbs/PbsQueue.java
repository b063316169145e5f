package io.hpcscale.agent.pbs;

import io.hpcscale.common.agent.QueueLimit;
import java.util.List;

/**
 * One queue of {@code qstat -Q -f -F json}, as far as the agent cares.
 *
 * @param stopped    {@code started} is False ({@code qstop}): its jobs wait for an administrator
 * @param totalJobs  its {@code total_jobs}, as PBS prints it
 * @param stateCount its {@code state_count}: how many of its jobs are in each state, as PBS prints it
 * @param limits     what runs at once and what one job may ask ({@link PbsLimits})
 * @param problems   limits that could not be read, each naming its attribute
 */
record PbsQueue(String name, boolean stopped, String totalJobs, String stateCount, List<QueueLimit> limits,
        List<String> problems) {
    PbsQueue {
        limits = List.copyOf(limits);
        problems = List.copyOf(problems);
    }

    PbsQueue(String name, boolean stopped, String totalJobs, String stateCount) {
        this(name, stopped, totalJobs, stateCount, List.of(), List.of());
    }

    /** What changes when a job of the queue is queued, starts, ends or moves, or the queue is stopped or started. */
    String signature() {
        return name + " total_jobs=" + totalJobs + " state_count=" + stateCount + (stopped ? " stopped" : "");
    }
}
