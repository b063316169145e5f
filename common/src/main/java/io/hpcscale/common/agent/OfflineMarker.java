package io.hpcscale.common.agent;

/**
 * How hpcscale signs the offline marks it sets (PBS comment, Slurm reason), so that it only ever clears its own and
 * never a mark an administrator set.
 */
public final class OfflineMarker {
    public static final String MARKER = "hpcscale:";

    private OfflineMarker() {
    }

    /** The comment for a node hpcscale takes out of service, at most {@code maxLength} characters. */
    public static String comment(String reason, int maxLength) {
        String text = MARKER + " " + (reason == null || reason.isBlank() ? "scale-down" : reason.strip());
        return text.length() <= maxLength ? text : text.substring(0, maxLength);
    }

    public static boolean isOurs(String comment) {
        return comment != null && comment.contains(MARKER);
    }

    /**
     * The mark of a node the scheduler shows {@code offline} or not, from its comment or reason: a blank one is no
     * mark at all, which only the store's evidence can attribute.
     */
    public static OfflineMark markOf(boolean offline, String comment) {
        if (!offline) {
            return OfflineMark.NONE;
        }
        if (comment == null || comment.isBlank()) {
            return OfflineMark.UNMARKED;
        }
        return isOurs(comment) ? OfflineMark.HPCSCALE : OfflineMark.OTHER;
    }
}
