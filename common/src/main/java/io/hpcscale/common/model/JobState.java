package io.hpcscale.common.model;

/** A job's {@code Status} in the ClusterLoad contract. */
public enum JobState {
    Queued,
    Hold,
    Waiting,
    Running,
    Finished,
    Failed,
    Unknown
}
