package io.hpcscale.agent.pbs;

/**
 * One queue of {@code qstat -Q -f -F json}, as far as the agent cares.
 *
 * @param stopped    {@code started} is False ({@code qstop}): its jobs wait for an administrator
 * @param totalJobs  its {@code total_jobs}, as PBS prints it
 * @param stateCount its {@code state_count}: how many of its jobs are in each state, as PBS prints it
 */
record PbsQueue(String name, boolean stopped, String totalJobs, String stateCount) {

    /** What changes when a job of the queue is queued, starts, ends or moves, or the queue is stopped or started. */
    String signature() {
        return name + " total_jobs=" + totalJobs + " state_count=" + stateCount + (stopped ? " stopped" : "");
    }
}
