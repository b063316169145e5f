package io.hpcscale.simulator.replay;

import io.hpcscale.common.config.Durations;
import java.time.Duration;
import java.util.Random;

/** How long simulated instances take to boot: fixed ({@code 3m}) or uniform in a range ({@code 2m-6m}). */
public record BootTimes(Duration low, Duration high) {

    public static BootTimes parse(String text) {
        String[] bounds = text.split("-", 2);
        Duration low = Durations.parse(bounds[0]);
        Duration high = bounds.length == 2 ? Durations.parse(bounds[1]) : low;
        if (high.compareTo(low) < 0) {
            throw new IllegalArgumentException("boot time range " + text + " runs backwards");
        }
        return new BootTimes(low, high);
    }

    public Duration sample(Random random) {
        if (low.equals(high)) {
            return low;
        }
        return low.plusMillis((long) (random.nextDouble() * (high.toMillis() - low.toMillis())));
    }

    public Duration mean() {
        return low.plus(high).dividedBy(2);
    }

    /** As the option is written, like the other settings the report echoes, and exact to the millisecond. */
    @Override
    public String toString() {
        return low.equals(high) ? Durations.format(low) : Durations.format(low) + "-" + Durations.format(high);
    }
}
