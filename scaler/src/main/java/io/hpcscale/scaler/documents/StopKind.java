package io.hpcscale.scaler.documents;

/**
 * Why an instance stopped: the kinds hpcscale plans are each re-checked differently before the stop; the last two are
 * only ever found in a listing.
 */
public enum StopKind {
    /** The drain handshake is complete: offline in the scheduler, running no job. */
    DRAINED,
    /** Its node never reported to the scheduler within the boot timeout: a failed boot. */
    BOOT_FAILURE,
    /**
     * Its node's health check failed ({@code healthCheck}): drained and empty, it is replaced, and counted as a failed
     * boot.
     */
    UNHEALTHY,
    /** Slurm's power saving suspended its node, which runs no job. */
    POWER_SAVING,
    /**
     * The pool's fixed target was lowered: an instance still booting, whose node runs nothing yet, in a pool that no
     * agent serves.
     */
    SURPLUS,
    /** A node, or the render manager, asked for its instance to be removed: it is deleted. */
    REMOVED,
    /**
     * Running longer than {@code orphanAfter}, not started by hpcscale, its node reported by no agent, in a pool
     * whose {@code stopOrphans} is true.
     */
    ORPHAN,
    /** Not stopped by hpcscale: the cloud took a Spot instance back. Found, never planned. */
    EVICTED,
    /** Not stopped by hpcscale: someone or something else stopped it. Found, never planned. */
    STOPPED_ELSEWHERE;

    /**
     * Whether the node served and went idle, and was drained: a hibernating pool hibernates only these, which resume
     * out of service until their check passes. A failed boot or health check would resume as broken as it stopped;
     * an orphan or a surplus boot holds nothing hpcscale wants back; Slurm's power saving, which a hibernating pool
     * cannot follow, expects a boot.
     */
    public boolean idle() {
        return this == DRAINED;
    }

    /** Whether the stop ends a boot that failed, and counts towards the pool's backoff and protection. */
    public boolean failedBoot() {
        return this == BOOT_FAILURE || this == UNHEALTHY;
    }
}
