package io.hpcscale.common.agent;

/** Whether a node is out of service in the scheduler, and whose mark says so. */
public enum OfflineMark {
    /** In service: the scheduler places jobs on it. */
    NONE,
    /** Out of service with hpcscale's mark ({@link OfflineMarker#MARKER} in the comment or reason). */
    HPCSCALE,
    /** Out of service with someone else's mark: an administrator's comment or reason. */
    OTHER,
    /**
     * Out of service with no mark at all, as PBS shows every offline node after its server restarted (the restart
     * drops node comments): whose it is, only the store's evidence can tell ({@link OfflineOwnership}).
     */
    UNMARKED;

    public boolean offline() {
        return this != NONE;
    }

    /** The mark of a node offline or not, by hpcscale's mark or someone else's. */
    public static OfflineMark of(boolean offline, boolean byHpcscale) {
        return !offline ? NONE : byHpcscale ? HPCSCALE : OTHER;
    }
}
