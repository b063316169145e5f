package io.hpcscale.agent.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * A job's time limit as squeue prints it. In {@code -o %l}: {@code [days-]hours:minutes:seconds},
 * {@code minutes:seconds}, or {@code UNLIMITED} / {@code NOT_SET} (Slurm's {@code mins2time_str}; the fixtures of
 * Slurm 22.05 show {@code 10:00} and {@code UNLIMITED}). In {@code --json} (the formats of 21.08 and 22.05 the
 * agent reads): minutes, null when unlimited.
 */
final class SlurmTimeLimit {
    private SlurmTimeLimit() {
    }

    /** The limit, or null for none, an unlimited one, or text that is not a time. */
    static Duration fromText(String text) {
        if (text == null || !Character.isDigit(text.charAt(0))) {
            return null;
        }
        try {
            long days = 0;
            String clock = text;
            int dash = text.indexOf('-');
            if (dash > 0) {
                days = Long.parseLong(text.substring(0, dash));
                clock = text.substring(dash + 1);
            }
            String[] parts = clock.split(":");
            long seconds = switch (parts.length) {
                case 1 -> Long.parseLong(parts[0]) * 60;
                case 2 -> Long.parseLong(parts[0]) * 60 + Long.parseLong(parts[1]);
                case 3 -> Long.parseLong(parts[0]) * 3600 + Long.parseLong(parts[1]) * 60 + Long.parseLong(parts[2]);
                default -> -1;
            };
            return seconds < 0 ? null : Duration.ofDays(days).plusSeconds(seconds);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The limit of a job's {@code time_limit} in squeue's JSON, or null for none or unlimited. */
    static Duration fromJson(JsonNode minutes) {
        return minutes != null && minutes.canConvertToLong() && minutes.asLong() >= 0
                ? Duration.ofMinutes(minutes.asLong()) : null;
    }
}
