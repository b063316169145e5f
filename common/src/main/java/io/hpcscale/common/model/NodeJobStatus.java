package io.hpcscale.common.model;

/** A node's {@code JobStatus}: whether any job runs on it. */
public enum NodeJobStatus {
    Free,
    Busy
}
