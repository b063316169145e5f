package io.hpcscale.scaler.plan;

/**
 * A fixed pool's target as read this cycle.
 *
 * @param count          the count, or null when it is not known
 * @param source         where it lives, for messages ("tag TOTAL_NODES of resource group rg")
 * @param unknownBecause why it is not known (unreadable, unset, not a number), or null when it is
 */
public record TargetReading(Integer count, String source, String unknownBecause) {

    public static TargetReading of(int count, String source) {
        return new TargetReading(count, source, null);
    }

    public static TargetReading unknown(String source, String why) {
        return new TargetReading(null, source, why);
    }

    public boolean known() {
        return count != null;
    }
}
