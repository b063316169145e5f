package io.hpcscale.common.agent;

import java.util.Objects;

/**
 * One limit a scheduler puts on a queue, which jobs queued beyond it wait for rather than nodes: PBS's
 * {@code max_run}, {@code max_run_res.ncpus}, {@code max_run_res.nodect} (overall, per user, for one user) and
 * {@code resources_max.ncpus}/{@code .nodect} (per job).
 *
 * @param user    null for a limit on the whole queue, {@link #EACH_USER} for one on every user, else the user's name
 * @param setting how the scheduler shows it, for the reason a job waits ({@code max_run = [u:PBS_GENERIC=2]})
 */
public record QueueLimit(Kind kind, String user, long value, String setting) {
    public static final String EACH_USER = "*";

    public enum Kind {
        /** Jobs running at once. */
        RUNNING_JOBS,
        /** CPUs of the jobs running at once. */
        RUNNING_CPUS,
        /** Nodes of the jobs running at once. */
        RUNNING_NODES,
        /** CPUs one job may ask for: a job asking more never runs in the queue. */
        JOB_CPUS,
        /** Nodes one job may ask for. */
        JOB_NODES
    }

    public QueueLimit {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(setting, "setting");
    }

    /** Whether it counts this user's jobs. */
    boolean covers(String owner) {
        return user == null || EACH_USER.equals(user) || user.equals(owner);
    }

    /** Whether it limits one job alone rather than what runs together. */
    boolean perJob() {
        return kind == Kind.JOB_CPUS || kind == Kind.JOB_NODES;
    }
}
