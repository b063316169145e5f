package io.hpcscale.simulator.replay;

import java.util.ArrayList;
import java.util.List;

/** The share of jobs that waited at most a given time, one line per policy, on a logarithmic time axis. */
final class WaitChart {
    static final String[] COLORS = {"#1f6feb", "#0a3069", "#d1242f", "#1a7f37", "#8250df", "#bf8700", "#57606a",
        "#e16f24", "#000000"};
    /** Waits people think in, rather than powers of ten seconds (1m40s, 16m40s, 2h46m40s). */
    private static final double[] TICKS_SECONDS = {1, 10, 60, 600, 3600, 6 * 3600, 86_400, 7 * 86_400, 30 * 86_400,
            365 * 86_400};
    private static final int MOST_POINTS = 600;

    private WaitChart() {
    }

    static String of(List<PolicyResult> results) {
        double longest = 1;
        for (PolicyResult r : results) {
            for (double w : r.waitsSeconds()) {
                longest = Math.max(longest, w);
            }
        }
        double logMax = Math.log10(Math.max(10, longest));
        SvgChart chart = new SvgChart("share of jobs that waited at most a given time",
                "wait from submission to start (log scale)",
                "share of jobs (%)");
        for (double tick : TICKS_SECONDS) {
            if (Math.log10(tick) <= logMax) {
                chart.xTick(Math.log10(tick) / logMax, DurationText.of(tick));
            }
        }
        for (int p = 0; p <= 100; p += 25) {
            chart.yTick(p / 100.0, p + "%");
        }
        int colour = 0;
        for (PolicyResult r : results) {
            List<Double> waits = new ArrayList<>(r.waitsSeconds());
            if (waits.isEmpty()) {
                continue;
            }
            waits.sort(Double::compare);
            List<SvgChart.Point> points = new ArrayList<>();
            int steps = Math.min(MOST_POINTS, waits.size());
            for (int i = 1; i <= steps; i++) {
                int index = (int) ((long) i * waits.size() / steps) - 1;
                points.add(new SvgChart.Point(Math.log10(Math.max(1, waits.get(index))) / logMax,
                        (index + 1.0) / waits.size()));
            }
            chart.line("waits", COLORS[colour % COLORS.length], 1.5, points, r.name());
            colour++;
        }
        return chart.svg();
    }
}
