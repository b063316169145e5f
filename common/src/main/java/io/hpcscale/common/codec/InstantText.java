package io.hpcscale.common.codec;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * Instants as documents hold them, the text {@link Instant#toString()} writes ({@code 2026-01-01T00:00:00Z}, a
 * fraction in groups of three digits when there is one), read and written without the JDK's general formatter.
 * Every document carries several instants and a scaler's state one per instance: in the simulator's profile, parsing
 * them with {@link Instant#parse} allocated 38 GB over one replay and took a fifth of its time. Text outside this
 * form (another year range, an offset, a leap second) goes to {@link Instant#parse}, so what is accepted and what is
 * refused, with which error, stay the JDK's.
 */
final class InstantText {
    private static final int[] FRACTION_SCALE = {0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000,
            100, 10, 1};
    private static final long FIRST_FAST = LocalDate.of(0, 1, 1).toEpochDay() * 86_400;
    private static final long END_FAST = LocalDate.of(10_000, 1, 1).toEpochDay() * 86_400;

    private InstantText() {
    }

    /** @throws DateTimeParseException as {@link Instant#parse} does */
    static Instant parse(String text) {
        Instant fast = parseCanonical(text);
        return fast != null ? fast : Instant.parse(text);
    }

    static String format(Instant instant) {
        long seconds = instant.getEpochSecond();
        if (seconds < FIRST_FAST || seconds >= END_FAST) {
            return instant.toString();
        }
        long day = Math.floorDiv(seconds, 86_400);
        int secondOfDay = (int) Math.floorMod(seconds, 86_400);
        LocalDate date = LocalDate.ofEpochDay(day);
        StringBuilder text = new StringBuilder(30);
        digits(text, date.getYear(), 4).append('-');
        digits(text, date.getMonthValue(), 2).append('-');
        digits(text, date.getDayOfMonth(), 2).append('T');
        digits(text, secondOfDay / 3600, 2).append(':');
        digits(text, secondOfDay / 60 % 60, 2).append(':');
        digits(text, secondOfDay % 60, 2);
        int nanos = instant.getNano();
        if (nanos != 0) {
            text.append('.');
            if (nanos % 1_000_000 == 0) {
                digits(text, nanos / 1_000_000, 3);
            } else if (nanos % 1_000 == 0) {
                digits(text, nanos / 1_000, 6);
            } else {
                digits(text, nanos, 9);
            }
        }
        return text.append('Z').toString();
    }

    /** The instant, when the text is exactly {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z} with valid fields; else null. */
    private static Instant parseCanonical(String text) {
        int length = text.length();
        if (length < 20 || length == 21 || length > 30 || text.charAt(length - 1) != 'Z'
                || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int year = number(text, 0, 4);
        int month = number(text, 5, 7);
        int day = number(text, 8, 10);
        int hour = number(text, 11, 13);
        int minute = number(text, 14, 16);
        int second = number(text, 17, 19);
        int nanos = 0;
        if (length > 20) {
            if (text.charAt(19) != '.') {
                return null;
            }
            int fraction = number(text, 20, length - 1);
            if (fraction < 0) {
                return null;
            }
            nanos = fraction * FRACTION_SCALE[length - 21];
        }
        if (year < 0 || month < 1 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0
                || second > 59) {
            return null;
        }
        try {
            long epochDay = LocalDate.of(year, month, day).toEpochDay();
            return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3600L + minute * 60L + second, nanos);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** The decimal digits from {@code begin} to {@code end}, or -1 if any is not one. */
    private static int number(String text, int begin, int end) {
        int value = 0;
        for (int i = begin; i < end; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static StringBuilder digits(StringBuilder text, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            text.append('0');
        }
        return text.append(digits);
    }
}
