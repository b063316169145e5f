package io.hpcscale.simulator.replay;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * What one instance costs per hour, to put a cost beside each policy's node-hours. It has no currency: the report
 * multiplies and writes two decimals, in whatever money the price was given.
 */
public record NodeHourPrice(double perHour) {

    public NodeHourPrice {
        if (!Double.isFinite(perHour) || perHour < 0) {
            throw new IllegalArgumentException("--price-per-hour must be a number of at least 0, not " + perHour);
        }
    }

    double cost(PolicyResult result) {
        return result.nodeHours() * perHour;
    }

    String costText(PolicyResult result) {
        return String.format(Locale.ROOT, "%.2f", cost(result));
    }

    /** As it was given: 0.1, not the double's 0.1000000000000000055511151231257827. */
    @Override
    public String toString() {
        return BigDecimal.valueOf(perHour).stripTrailingZeros().toPlainString();
    }
}
