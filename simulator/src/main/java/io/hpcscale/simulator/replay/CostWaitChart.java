package io.hpcscale.simulator.replay;

import java.util.List;

/**
 * What each policy paid against how long its jobs waited: one dot per policy, node-hours as a multiple of the oracle's
 * across, mean wait up. The policies nearest the bottom left corner are the ones to want; the oracle sits at 1.
 */
final class CostWaitChart {
    private CostWaitChart() {
    }

    static String of(List<PolicyResult> results) {
        PolicyResult oracle = results.stream().filter(r -> r.name().equals("oracle")).findFirst().orElseThrow();
        double mostRatio = 1;
        double longestWait = 1;
        for (PolicyResult r : results) {
            mostRatio = Math.max(mostRatio, r.nodeHours() / oracle.nodeHours());
            longestWait = Math.max(longestWait, r.meanWaitSeconds());
        }
        double ratioSpan = niceAbove(mostRatio - 1);
        double waitSpan = longestWait * 1.1;
        SvgChart chart = new SvgChart("node-hours against mean wait, per policy",
                "node-hours, times the oracle's", "mean wait");
        for (int i = 0; i <= 4; i++) {
            chart.xTick(i / 4.0, String.format(java.util.Locale.ROOT, "%.3f", 1 + ratioSpan * i / 4));
            chart.yTick(i / 4.0, DurationText.of(waitSpan * i / 4));
        }
        int colour = 0;
        for (PolicyResult r : results) {
            double x = Math.min(1, (r.nodeHours() / oracle.nodeHours() - 1) / ratioSpan);
            chart.dot("policy", WaitChart.COLORS[colour % WaitChart.COLORS.length],
                    new SvgChart.Point(x, r.meanWaitSeconds() / waitSpan), r.name());
            colour++;
        }
        return chart.svg();
    }

    /** A round span at or above {@code value}, so the ticks read as round multiples. */
    private static double niceAbove(double value) {
        for (double span : new double[] {0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10}) {
            if (value <= span) {
                return span;
            }
        }
        return Math.ceil(value);
    }
}
