package io.hpcscale.scaler.pool;

import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code pool.<name>.warmSchedule}: windows separated by {@code ;}, each {@code DAYS HH:MM-HH:MM = N}. DAYS is
 * {@code daily}, a day ({@code Mon}, or {@code Monday}), a range ({@code Mon-Fri}, {@code Fri-Mon} wrapping over the
 * weekend), or a comma-separated list of those. Times are 24-hour; {@code 24:00} ends a window at midnight.
 */
final class WarmScheduleParser {
    static final String EXAMPLE = "Mon-Fri 08:00-18:00 = 4; Sat 09:00-13:00 = 1";
    private static final Pattern WINDOW = Pattern.compile(
            "(\\S+)\\s+(\\d{1,2}:\\d{2})\\s*-\\s*(\\d{1,2}:\\d{2})\\s*=\\s*(\\d+)");
    private static final Pattern TIME = Pattern.compile("(\\d{1,2}):(\\d{2})");

    private WarmScheduleParser() {
    }

    /**
     * @throws IllegalArgumentException naming the part of the text that is wrong
     */
    static WarmSchedule parse(int always, String text, ZoneId zone) {
        List<WarmSchedule.Window> windows = new ArrayList<>();
        for (String part : text.split(";")) {
            String window = part.trim();
            if (window.isEmpty()) {
                continue;
            }
            Matcher m = WINDOW.matcher(window);
            if (!m.matches()) {
                throw new IllegalArgumentException("\"" + window + "\" is not a window: write DAYS HH:MM-HH:MM = N, "
                        + "the days without blanks (Mon-Fri, or Mon,Wed) and N a count of nodes");
            }
            LocalTime from = time(m.group(2), window, false);
            LocalTime to = time(m.group(3), window, true);
            if (from.equals(to) && !m.group(3).equals("24:00")) {
                throw new IllegalArgumentException("\"" + window + "\" starts and ends at the same time: write "
                        + "00:00-24:00 for a whole day");
            }
            int count = count(m.group(4), window);
            if (count <= always) {
                throw new IllegalArgumentException("\"" + window + "\" keeps " + count + " warm nodes, no more than "
                        + "warm = " + always + " keeps at all hours: a window only raises warm");
            }
            windows.add(new WarmSchedule.Window(days(m.group(1), window), from, to, count, window));
        }
        if (windows.isEmpty()) {
            throw new IllegalArgumentException("it has no window");
        }
        return new WarmSchedule(always, windows, zone);
    }

    private static Set<DayOfWeek> days(String text, String window) {
        if (text.equalsIgnoreCase("daily")) {
            return EnumSet.allOf(DayOfWeek.class);
        }
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String item : text.split(",")) {
            String[] ends = item.split("-", -1);
            if (ends.length > 2) {
                throw new IllegalArgumentException("\"" + item + "\" in \"" + window + "\" is not a day or a range "
                        + "of days");
            }
            DayOfWeek first = day(ends[0], window);
            DayOfWeek last = ends.length == 2 ? day(ends[1], window) : first;
            for (DayOfWeek day = first; ; day = day.plus(1)) {
                days.add(day);
                if (day == last) {
                    break;
                }
            }
        }
        return days;
    }

    private static DayOfWeek day(String text, String window) {
        String name = text.trim().toUpperCase(Locale.ROOT);
        for (DayOfWeek day : DayOfWeek.values()) {
            if (name.length() >= 3 && day.name().startsWith(name) && (name.length() == 3
                    || name.equals(day.name()))) {
                return day;
            }
        }
        throw new IllegalArgumentException("\"" + text + "\" in \"" + window + "\" is not a day: use Mon, Tue, Wed, "
                + "Thu, Fri, Sat, Sun (or the full name), a range such as Mon-Fri, or daily");
    }

    private static LocalTime time(String text, String window, boolean end) {
        Matcher m = TIME.matcher(text);
        int hours = m.matches() ? Integer.parseInt(m.group(1)) : -1;
        int minutes = m.matches() ? Integer.parseInt(m.group(2)) : -1;
        if (end && hours == 24 && minutes == 0) {
            return LocalTime.MIDNIGHT;
        }
        if (hours < 0 || hours > 23 || minutes > 59) {
            throw new IllegalArgumentException("\"" + text + "\" in \"" + window + "\" is not a time of day: use "
                    + "HH:MM from 00:00 to 23:59 (24:00 ends a window at midnight)");
        }
        return LocalTime.of(hours, minutes);
    }

    private static int count(String text, String window) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + text + "\" in \"" + window + "\" is not a count of nodes");
        }
    }
}
