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
}
