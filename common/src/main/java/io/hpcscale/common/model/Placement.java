package io.hpcscale.common.model;

/** How a job's chunks may be spread over nodes. */
public enum Placement {
    /** All chunks on one node. */
    pack,
    /** One chunk per node. */
    scatter,
    /** Anywhere they fit. */
    free
}
