package io.hpcscale.simulator.replay;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Nodes up and nodes demanded over time, one chart per policy, all on one scale so that they compare at a glance:
 * time runs to the last sample of any policy, and the vertical axis to the most nodes any policy had up.
 *
 * <p>The axis follows nodes up, not demand. A queue can ask for many times the nodes a pool has (thousands against
 * 256 on an overloaded trace), and an axis reaching that far squashes the line that shows what each policy paid
 * for into the bottom few pixels. Demand above the axis is drawn along the plot's top edge, a bar above the plot
 * marks when, and the legend gives its peak. A second panel for demand would have kept its height but split the
 * two lines whose gap is what the chart is for.
 */
final class NodesCharts {
    private static final String ACTIVE = "#1f6feb";
    private static final String DEMAND = "#d1242f";
    /** About two points per pixel of the plot: finer adds bytes and no detail. */
    private static final int BUCKETS = 1200;
    /** Steps between time ticks, in minutes: fractions of an hour, hours, days, weeks, 30 days. */
    private static final int[] TIME_STEPS_MINUTES = {3, 6, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 4320, 10_080,
            20_160, 43_200};
    private static final int MOST_TIME_TICKS = 10;
    private static final int MOST_NODE_STEPS = 8;

    /** The vertical axis: {@code steps} gridlines {@code step} nodes apart. */
    private record NodeAxis(int step, int steps) {
        /** The smallest axis of steps of 1, 2 or 5 times a power of ten that reaches {@code most}. */
        static NodeAxis reaching(int most) {
            for (int power = 1; ; power *= 10) {
                for (int step : new int[] {power, 2 * power, 5 * power}) {
                    int steps = (most + step - 1) / step;
                    if (steps <= MOST_NODE_STEPS) {
                        return new NodeAxis(step, steps);
                    }
                }
            }
        }

        int top() {
            return step * steps;
        }
    }

    /** Per bucket of time: the most nodes up and the most demanded within it. */
    private record Buckets(int[] active, int[] demanded) {
    }

    private final double spanSeconds;
    private final NodeAxis axis;

    private NodesCharts(double spanSeconds, NodeAxis axis) {
        this.spanSeconds = spanSeconds;
        this.axis = axis;
    }

    /** The scale that fits every policy's series. */
    static NodesCharts scaledFor(List<PolicyResult> results) {
        double span = 1;
        int most = 1;
        for (PolicyResult r : results) {
            for (PolicyResult.Sample s : r.series()) {
                span = Math.max(span, s.seconds());
                most = Math.max(most, s.active());
            }
        }
        return new NodesCharts(span, NodeAxis.reaching(most));
    }

    /** The chart of one policy, whose series must not be empty. */
    String chart(PolicyResult r) {
        SvgChart chart = new SvgChart(r.name() + ": nodes up and nodes demanded",
                "time since the first job was submitted (hours)", "nodes");
        timeTicks(chart);
        int top = axis.top();
        for (int i = 0; i <= axis.steps(); i++) {
            chart.yTick((double) i / axis.steps(), Integer.toString(i * axis.step()));
        }
        Buckets buckets = buckets(r.series());
        List<SvgChart.Point> active = new ArrayList<>();
        List<SvgChart.Point> demanded = new ArrayList<>();
        for (int b = 0; b < buckets.active().length; b++) {
            double x = (double) b / BUCKETS;
            active.add(new SvgChart.Point(x, (double) buckets.active()[b] / top));
            demanded.add(new SvgChart.Point(x, Math.min(1, (double) buckets.demanded()[b] / top)));
        }
        chart.line("demanded", DEMAND, 1, demanded, "nodes the jobs ask for");
        chart.line("active", ACTIVE, 1.5, active, "nodes up (starting or running)");
        markOffScale(chart, buckets.demanded());
        return chart.svg();
    }

    /** The series up to its last sample, which is where its policy's replay stopped changing. */
    private Buckets buckets(List<PolicyResult.Sample> series) {
        int count = 1 + Math.min(BUCKETS - 1, (int) (series.get(series.size() - 1).seconds() / spanSeconds * BUCKETS));
        int[] active = new int[count];
        int[] demanded = new int[count];
        int next = 0;
        int lastActive = 0;
        int lastDemanded = 0;
        for (int b = 0; b < count; b++) {
            double bucketEnd = spanSeconds * (b + 1) / BUCKETS;
            active[b] = lastActive;
            demanded[b] = lastDemanded;
            // The last bucket also takes a sample at the very end of the span, which bucketEnd does not pass.
            while (next < series.size() && (series.get(next).seconds() < bucketEnd || b == count - 1)) {
                lastActive = series.get(next).active();
                lastDemanded = series.get(next).demanded();
                active[b] = Math.max(active[b], lastActive);
                demanded[b] = Math.max(demanded[b], lastDemanded);
                next++;
            }
        }
        return new Buckets(active, demanded);
    }

    private void markOffScale(SvgChart chart, int[] demanded) {
        int top = axis.top();
        int peak = 0;
        int runStart = -1;
        for (int b = 0; b <= demanded.length; b++) {
            boolean above = b < demanded.length && demanded[b] > top;
            if (above && runStart < 0) {
                runStart = b;
            } else if (!above && runStart >= 0) {
                chart.markAbove("off-scale", DEMAND, (double) runStart / BUCKETS, (double) b / BUCKETS);
                runStart = -1;
            }
            peak = b < demanded.length ? Math.max(peak, demanded[b]) : peak;
        }
        if (peak > top) {
            chart.legendForMarks(DEMAND, "demand above " + top + " (peak " + peak + ")");
        }
    }

    private void timeTicks(SvgChart chart) {
        double spanMinutes = spanSeconds / 60;
        int longest = TIME_STEPS_MINUTES[TIME_STEPS_MINUTES.length - 1];
        int step = longest * (int) Math.ceil(spanMinutes / longest / MOST_TIME_TICKS);
        for (int candidate : TIME_STEPS_MINUTES) {
            if (spanMinutes / candidate <= MOST_TIME_TICKS) {
                step = candidate;
                break;
            }
        }
        for (long minutes = 0; minutes <= spanMinutes; minutes += step) {
            chart.xTick(minutes / spanMinutes, BigDecimal.valueOf(minutes).divide(BigDecimal.valueOf(60))
                    .stripTrailingZeros().toPlainString());
        }
    }
}
