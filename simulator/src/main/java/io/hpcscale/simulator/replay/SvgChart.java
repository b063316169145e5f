package io.hpcscale.simulator.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One SVG chart laid out so that nothing but data is drawn inside the plot: tick labels and axis titles below and
 * to the left of it, marks along its top edge above it, and the legend in a column to its right. Callers place
 * things in fractions of the plot's width and height, so every chart has the same frame and the layout is decided
 * here alone.
 */
final class SvgChart {
    /** Room for the y axis title and tick labels of up to six digits. */
    private static final int LEFT = 70;
    /** Room for the marks above the plot. */
    private static final int TOP = 18;
    private static final int PLOT_WIDTH = 640;
    private static final int PLOT_HEIGHT = 200;
    /** Room for the x tick labels and, below them, the x axis title. */
    private static final int BOTTOM = 46;
    private static final int LEGEND_X = LEFT + PLOT_WIDTH + 20;
    /** The legend column takes labels of about 35 characters; the page's 980 pixels hold the whole chart. */
    private static final int WIDTH = LEGEND_X + 250;
    private static final int LEGEND_ROW = 16;

    /** A position in the plot: 0 is its left or bottom edge, 1 its right or top edge. */
    record Point(double x, double y) {
    }

    private record LegendEntry(String color, double strokeWidth, String label) {
    }

    private final String label;
    private final String xTitle;
    private final String yTitle;
    private final StringBuilder grid = new StringBuilder();
    private final StringBuilder data = new StringBuilder();
    private final List<LegendEntry> legend = new ArrayList<>();

    /** @param label what the chart shows, for screen readers and to tell charts apart */
    SvgChart(String label, String xTitle, String yTitle) {
        this.label = label;
        this.xTitle = xTitle;
        this.yTitle = yTitle;
    }

    void xTick(double fraction, String text) {
        double x = x(fraction);
        grid.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                + "<text class=\"x-tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x, TOP, x,
                TOP + PLOT_HEIGHT, x, TOP + PLOT_HEIGHT + 15, Markup.escape(text)));
    }

    void yTick(double fraction, String text) {
        double y = y(fraction);
        grid.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                + "<text class=\"y-tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\" dy=\"0.35em\">%s"
                + "</text>%n", LEFT, y, LEFT + PLOT_WIDTH, y, LEFT - 6, y, Markup.escape(text)));
    }

    /** A line through the points, which must lie within the plot. */
    void line(String role, String color, double strokeWidth, List<Point> points, String legendLabel) {
        StringBuilder coordinates = new StringBuilder();
        for (Point p : points) {
            coordinates.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(p.x()), y(p.y())));
        }
        data.append(String.format(Locale.ROOT, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\" "
                + "stroke-width=\"%.1f\" points=\"%s\"/>%n", role, color, strokeWidth, coordinates.toString().trim()));
        legend.add(new LegendEntry(color, strokeWidth, legendLabel));
    }

    /** A dot at a point within the plot, with its own legend entry. */
    void dot(String role, String color, Point point, String legendLabel) {
        data.append(String.format(Locale.ROOT, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\">"
                + "<title>%s</title></circle>%n", role, x(point.x()), y(point.y()), color, Markup.escape(legendLabel)));
        legend.add(new LegendEntry(color, 5, legendLabel));
    }

    /** A bar in the margin just above the plot from one fraction of its width to another. */
    void markAbove(String role, String color, double from, double to) {
        data.append(String.format(Locale.ROOT, "<line class=\"%s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                + "stroke=\"%s\" stroke-width=\"5\"/>%n", role, x(from), TOP - 6, Math.max(x(to), x(from) + 1),
                TOP - 6, color));
    }

    /** A legend entry for marks made with {@link #markAbove}. */
    void legendForMarks(String color, String text) {
        legend.add(new LegendEntry(color, 5, text));
    }

    String svg() {
        int height = Math.max(TOP + PLOT_HEIGHT + BOTTOM, TOP + LEGEND_ROW * legend.size() + 8);
        StringBuilder svg = new StringBuilder(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                + "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">%n", WIDTH, height,
                WIDTH, height, Markup.escape(label)));
        svg.append(grid);
        svg.append(String.format(Locale.ROOT, "<rect class=\"plot\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                + "fill=\"none\" stroke=\"#999\"/>%n", LEFT, TOP, PLOT_WIDTH, PLOT_HEIGHT));
        svg.append(data);
        svg.append(String.format(Locale.ROOT, "<text class=\"x-title\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s"
                + "</text>%n", LEFT + PLOT_WIDTH / 2, TOP + PLOT_HEIGHT + 36, Markup.escape(xTitle)));
        int yTitleY = TOP + PLOT_HEIGHT / 2;
        svg.append(String.format(Locale.ROOT, "<text class=\"y-title\" x=\"16\" y=\"%d\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 16 %d)\">%s</text>%n", yTitleY, yTitleY, Markup.escape(yTitle)));
        svg.append("<g class=\"legend\">\n");
        for (int i = 0; i < legend.size(); i++) {
            LegendEntry entry = legend.get(i);
            int y = TOP + 8 + LEGEND_ROW * i;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"%.1f\"/><text x=\"%d\" y=\"%d\">%s</text>%n", LEGEND_X, y - 4, LEGEND_X + 18,
                    y - 4, entry.color(), Math.max(2, entry.strokeWidth()), LEGEND_X + 24, y,
                    Markup.escape(entry.label())));
        }
        return svg.append("</g>\n</svg>").toString();
    }

    private static double x(double fraction) {
        return LEFT + PLOT_WIDTH * fraction;
    }

    private static double y(double fraction) {
        return TOP + PLOT_HEIGHT * (1 - fraction);
    }
}
