package io.hpcscale.simulator.replay;

import java.time.Duration;
import java.util.Locale;

/**
 * Measured durations as the simulator's reports print them: the largest unit first, every later unit in two digits
 * ({@code 45s}, {@code 12m05s}, {@code 1h00m44s}), so that an hour and 44 seconds cannot be read as 1h44m. Units
 * after the last one that is not zero are left out ({@code 3m}, {@code 1h05m}). From a day on, seconds are rounded
 * away ({@code 2d03h10m}): nobody reads a wait of days to the second, and the column stays as wide as below a day.
 *
 * <p>Settings echoed back keep the form they are given in ({@code Durations.format}). This is for what a replay
 * measured, which runs to days and comes in fractions of a second: the scaler's log form, {@code Durations.human},
 * has no days and writes 3,644 s as {@code 1h44s}.
 */
public final class DurationText {
    private static final String[] UNITS = {"d", "h", "m", "s"};
    private static final long DAY = 86_400;

    private DurationText() {
    }

    public static String of(Duration duration) {
        return of(duration.toMillis() / 1000.0);
    }

    /** Rounded to the second, or to the minute from a day on; below zero reads as {@code 0s}. */
    public static String of(double seconds) {
        long total = Math.max(0, Math.round(seconds));
        if (total >= DAY) {
            total = Math.round(total / 60.0) * 60;
        }
        long[] amounts = {total / DAY, total / 3600 % 24, total / 60 % 60, total % 60};
        int first = 0;
        while (first < amounts.length - 1 && amounts[first] == 0) {
            first++;
        }
        int last = amounts.length - 1;
        while (last > first && amounts[last] == 0) {
            last--;
        }
        StringBuilder out = new StringBuilder().append(amounts[first]).append(UNITS[first]);
        for (int unit = first + 1; unit <= last; unit++) {
            out.append(String.format(Locale.ROOT, "%02d", amounts[unit])).append(UNITS[unit]);
        }
        return out.toString();
    }
}
