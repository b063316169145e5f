package io.hpcscale.simulator.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The reports read back as a person reads them, on results made to show what each is about. */
class SimulationReportTest {
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+)([dhms])");
    private static final String UNITS = "dhms";
    private static final long[] UNIT_SECONDS = {86_400, 3600, 60, 1};
    private static final long[] UNIT_LIMITS = {Long.MAX_VALUE, 24, 60, 60};

    static PolicyResult result(String name, double nodeHours, List<Double> waits, List<PolicyResult.Sample> series) {
        List<Double> sorted = waits.stream().sorted().toList();
        double mean = waits.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        int peak = series.stream().mapToInt(PolicyResult.Sample::active).max().orElse(0);
        return new PolicyResult(name, nodeHours, nodeHours / 10, mean, sorted.get(sorted.size() / 2),
                sorted.get(sorted.size() - 1), 1, 1, 1, peak, waits.size(), List.of(), 0, series, waits);
    }

    static Simulation.Outcome outcome(Duration span, PolicyResult... results) {
        return new Simulation.Outcome(List.of(results), results[0].jobsCompleted(), 0, 0, span);
    }

    /**
     * A duration of the reports read back, asserting the form that makes it unambiguous: every unit after the first
     * in two digits and in its range, and no unit skipped between the first and the last.
     */
    static double readDuration(String text) {
        Matcher part = DURATION_PART.matcher(text);
        long seconds = 0;
        int end = 0;
        int previousUnit = -1;
        while (part.find()) {
            assertEquals(end, part.start(), "'" + text + "' is a duration and nothing else");
            int unit = UNITS.indexOf(part.group(2));
            long amount = Long.parseLong(part.group(1));
            if (previousUnit >= 0) {
                assertEquals(previousUnit + 1, unit, "'" + text + "' skips a unit");
                assertEquals(2, part.group(1).length(), "'" + text + "': a later unit has two digits");
                assertTrue(amount < UNIT_LIMITS[unit], "'" + text + "': " + part.group() + " is out of its range");
            }
            seconds += amount * UNIT_SECONDS[unit];
            previousUnit = unit;
            end = part.end();
        }
        assertTrue(end > 0 && end == text.length(), "'" + text + "' is a duration");
        return seconds;
    }

    private static List<String> cells(String html, String rowStart) {
        Matcher row = Pattern.compile(Pattern.quote(rowStart) + ".*?</tr>").matcher(html);
        assertTrue(row.find(), rowStart + " in " + html);
        Matcher cell = Pattern.compile("<t[dh]>(.*?)</t[dh]>").matcher(row.group());
        List<String> cells = new ArrayList<>();
        while (cell.find()) {
            cells.add(cell.group(1));
        }
        return cells;
    }

    @Test
    void durationsReadUnambiguously() {
        assertEquals("1h00m44s", DurationText.of(3644));
        assertEquals("12m05s", DurationText.of(725));
        assertEquals("45s", DurationText.of(45));
        assertEquals("2d03h10m", DurationText.of(2 * 86_400 + 3 * 3600 + 10 * 60 + 20), "seconds rounded from a day");
        assertEquals("3m", DurationText.of(180));
        assertEquals("1m", DurationText.of(59.6));
        assertEquals("0s", DurationText.of(0.4));

        double mean = 3644;
        double median = 725;
        double p95 = 2 * 86_400 + 3 * 3600 + 44;
        PolicyResult waited = new PolicyResult("hpcscale", 10, 1, mean, median, p95, 1, 1, 1, 1, 1, List.of(), 0,
                List.of(new PolicyResult.Sample(0, 1, 1)), List.of(mean));
        Simulation.Outcome outcome = outcome(Duration.ofSeconds(3644), waited);

        Matcher row = Pattern.compile("(?m)^hpcscale .* (\\S+) / (\\S+) / (\\S+) ").matcher(
                SimulationReport.text(outcome));
        assertTrue(row.find(), SimulationReport.text(outcome));
        String html = SimulationReport.html(outcome, "t", "s");
        List<String> header = cells(html, "<tr><th>policy");
        List<String> cells = cells(html, "<tr><td>hpcscale");
        List<String> printed = List.of(row.group(1), row.group(2), row.group(3),
                cells.get(header.indexOf("mean wait")), cells.get(header.indexOf("median wait")),
                cells.get(header.indexOf("95th pct wait")));
        List<Double> expected = List.of(mean, median, p95, mean, median, p95);
        for (int i = 0; i < printed.size(); i++) {
            assertEquals(expected.get(i), readDuration(printed.get(i)), 30, printed.get(i));
        }
        Matcher span = Pattern.compile("jobs over (\\S+?)[.;]").matcher(html);
        assertTrue(span.find(), html);
        assertEquals(3644, readDuration(span.group(1)));
    }
}
