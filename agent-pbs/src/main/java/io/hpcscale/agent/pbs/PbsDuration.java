package io.hpcscale.agent.pbs;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * A PBS duration, as {@code walltime} is written: {@code [[hours:]minutes:]seconds[.milliseconds]} (PBS Professional
 * Reference Guide, "duration" format; the real OpenPBS 23.06 of the fixtures prints {@code 00:05:00}).
 */
final class PbsDuration {
    private static final Pattern DURATION = Pattern.compile("(\\d+:){0,2}\\d+(\\.\\d+)?");

    private PbsDuration() {
    }

    /** The duration, or null when the text is absent or not a duration: a job's time is never worth losing it over. */
    static Duration parse(String text) {
        if (text == null || !DURATION.matcher(text.trim()).matches()) {
            return null;
        }
        String[] parts = text.trim().split(":", -1);
        try {
            long whole = 0;
            for (int i = 0; i < parts.length - 1; i++) {
                whole = Math.addExact(Math.multiplyExact(whole, 60), Long.parseLong(parts[i]));
            }
            String last = parts[parts.length - 1];
            int dot = last.indexOf('.');
            long seconds = Long.parseLong(dot < 0 ? last : last.substring(0, dot));
            long millis = dot < 0 ? 0 : Math.round(Double.parseDouble("0" + last.substring(dot)) * 1000);
            return Duration.ofSeconds(Math.addExact(Math.multiplyExact(whole, 60), seconds)).plusMillis(millis);
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }
}
