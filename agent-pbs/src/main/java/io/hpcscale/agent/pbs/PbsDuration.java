package io.hpcscale.agent.pbs;

import java.time.Duration;

/**
 * A PBS duration, as {@code walltime} is written: {@code [[hours:]minutes:]seconds[.milliseconds]} (PBS Professional
 * Reference Guide, "duration" format; the real OpenPBS 23.06 of the fixtures prints {@code 00:05:00}).
 */
final class PbsDuration {
    private PbsDuration() {
    }

    /** The duration, or null when the text is absent or not a duration: a job's time is never worth losing it over. */
    static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String[] parts = text.trim().split(":");
        if (parts.length > 3) {
            return null;
        }
        try {
            long whole = 0;
            for (int i = 0; i < parts.length - 1; i++) {
                long part = Long.parseLong(parts[i]);
                if (part < 0) {
                    return null;
                }
                whole = whole * 60 + part;
            }
            double seconds = Double.parseDouble(parts[parts.length - 1]);
            if (seconds < 0 || !Double.isFinite(seconds)) {
                return null;
            }
            return Duration.ofSeconds(whole * 60).plusMillis(Math.round(seconds * 1000));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
