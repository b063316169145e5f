package io.hpcscale.scaler.pool;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How many warm nodes a pool keeps, hour by hour: {@code warm} at all times, more in the windows of
 * {@code warmSchedule} (working hours, say), read on the clock of {@code warmScheduleZone}. Where windows overlap,
 * the largest count holds; a window never lowers {@code warm}.
 *
 * @param always  {@code warm}: the count outside every window
 * @param windows {@code warmSchedule}'s windows, in the order written
 * @param zone    the zone whose wall clock the windows are read on, daylight saving included
 */
public record WarmSchedule(int always, List<Window> windows, ZoneId zone) {

    /**
     * One window: on its days, from {@code from} until {@code to}. A window that ends before it starts runs past
     * midnight into the next day ({@code Fri 22:00-06:00} ends on Saturday morning); {@code 00:00-24:00} is the whole
     * day. On a day the clocks change, a time the change skips is read as the same time after it (02:30 becomes
     * 03:30), and a time it repeats opens at its first occurrence and closes at its second.
     *
     * @param text the window as the setting wrote it, for reasons
     */
    public record Window(Set<DayOfWeek> days, LocalTime from, LocalTime to, int count, String text) {
        public Window {
            days = Set.copyOf(days);
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
        }

        /** When it opens on {@code day}, if it opens that day. */
        Optional<Instant> opens(LocalDate day, ZoneId zone) {
            return days.contains(day.getDayOfWeek())
                    ? Optional.of(day.atTime(from).atZone(zone).withEarlierOffsetAtOverlap().toInstant())
                    : Optional.empty();
        }

        /** When the window opened on {@code day} closes. */
        Instant closes(LocalDate day, ZoneId zone) {
            LocalDate endDay = from.isBefore(to) ? day : day.plusDays(1);
            return endDay.atTime(to).atZone(zone).withLaterOffsetAtOverlap().toInstant();
        }
    }

    public WarmSchedule {
        windows = List.copyOf(windows);
        Objects.requireNonNull(zone, "zone");
        if (always < 0) {
            throw new IllegalArgumentException("warm must not be negative, have " + always);
        }
    }

    /** The same count at all hours. */
    public static WarmSchedule always(int count) {
        return new WarmSchedule(count, List.of(), ZoneOffset.UTC);
    }

    /** The warm nodes the pool keeps at this instant. */
    public int at(Instant instant) {
        return window(instant).map(Window::count).orElse(always);
    }

    /** The most warm nodes it ever keeps: what the pool's max must allow. */
    public int most() {
        return Math.max(always, windows.stream().mapToInt(Window::count).max().orElse(0));
    }

    /** For a reason: "4 warm nodes (warmSchedule Mon-Fri 08:00-18:00 = 4)", or "2 warm nodes" outside every window. */
    public String describeAt(Instant instant) {
        Optional<Window> window = window(instant);
        int count = window.map(Window::count).orElse(always);
        return count + (count == 1 ? " warm node" : " warm nodes")
                + window.map(w -> " (warmSchedule " + w.text() + ")").orElse("");
    }

    /**
     * The first instant after {@code instant} at which a window opens or closes, when the count may change: what a
     * simulation must wake the scaler for. Empty without windows.
     */
    public Optional<Instant> nextChange(Instant instant) {
        LocalDate today = instant.atZone(zone).toLocalDate();
        Instant next = null;
        for (Window window : windows) {
            for (LocalDate day = today.minusDays(1); !day.isAfter(today.plusDays(7)); day = day.plusDays(1)) {
                Optional<Instant> opens = window.opens(day, zone);
                if (opens.isEmpty()) {
                    continue;
                }
                for (Instant edge : List.of(opens.get(), window.closes(day, zone))) {
                    if (edge.isAfter(instant) && (next == null || edge.isBefore(next))) {
                        next = edge;
                    }
                }
            }
        }
        return Optional.ofNullable(next);
    }

    /** The window that sets the count now, the largest of those open, if it raises {@code warm}. */
    private Optional<Window> window(Instant instant) {
        if (windows.isEmpty()) {
            return Optional.empty();
        }
        LocalDate today = instant.atZone(zone).toLocalDate();
        Window largest = null;
        for (Window window : windows) {
            if (window.count() > always && (largest == null || window.count() > largest.count())
                    && (open(window, today, instant) || open(window, today.minusDays(1), instant))) {
                largest = window;
            }
        }
        return Optional.ofNullable(largest);
    }

    /** Whether the window opened on {@code day} is open at the instant. */
    private boolean open(Window window, LocalDate day, Instant instant) {
        return window.opens(day, zone).filter(opens -> !instant.isBefore(opens)
                && instant.isBefore(window.closes(day, zone))).isPresent();
    }
}
