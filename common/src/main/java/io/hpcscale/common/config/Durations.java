package io.hpcscale.common.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as administrators write them: {@code 90s}, {@code 5m}, {@code 2h}, {@code 500ms}, {@code 1d}. */
public final class Durations {
    private static final Pattern FORM = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d)");

    private Durations() {
    }

    /** @throws IllegalArgumentException if the text is not a duration */
    public static Duration parse(String text) {
        Matcher m = FORM.matcher(text.trim().toLowerCase(java.util.Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration");
        }
        long amount = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }

    /**
     * For people: whole seconds as {@code 45s}, {@code 5m05s}, {@code 1h00m44s}, {@code 1h16m}: after a larger unit,
     * minutes and seconds take two digits, so that {@code 1h44s} cannot be read as 1h44m.
     */
    public static String human(Duration duration) {
        long seconds = Math.max(0, duration.toSeconds());
        long hours = seconds / 3600;
        long minutes = (seconds / 60) % 60;
        long rest = seconds % 60;
        StringBuilder out = new StringBuilder();
        if (hours > 0) {
            out.append(hours).append('h');
        }
        if (minutes > 0 || (hours > 0 && rest > 0)) {
            out.append(String.format(hours > 0 ? "%02dm" : "%dm", minutes));
        }
        if (rest > 0 || out.length() == 0) {
            out.append(String.format(out.length() > 0 ? "%02ds" : "%ds", rest));
        }
        return out.toString();
    }

    /** The shortest exact way to write a duration in the same form. */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        if (seconds != 0 && seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds != 0 && seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds != 0 && seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
