package io.hpcscale.simulator.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The simulator's results as a text table, as JSON, and as an HTML page with SVG charts. */
public final class SimulationReport {
    private static final String[] COLORS = {"#1f6feb", "#d1242f", "#1a7f37", "#8250df", "#bf8700", "#57606a"};
    private static final int WIDTH = 900;
    private static final int HEIGHT = 260;
    private static final int MARGIN = 50;

    private SimulationReport() {
    }

    public static String text(Simulation.Outcome outcome) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-12s %12s %22s %33s %10s %8s %8s %6s %6s%n", "policy", "node-hours",
                "idle node-hours", "wait mean / median / p95", "bounded", "starts", "stops", "peak", "jobs"));
        out.append(String.format(Locale.ROOT, "%-12s %12s %22s %33s %10s %8s %8s %6s %6s%n", "", "", "(share)", "",
                "slowdown", "", "", "nodes", "done"));
        for (PolicyResult r : outcome.results()) {
            double share = r.nodeHours() == 0 ? 0 : 100 * r.idleNodeHours() / r.nodeHours();
            out.append(String.format(Locale.ROOT, "%-12s %12.1f %14.1f (%4.1f%%) %33s %10.2f %8d %8d %6d %6d%n",
                    r.name(), r.nodeHours(), r.idleNodeHours(), share, waits(r),
                    r.meanBoundedSlowdown(), r.starts(), r.stops(), r.peakNodes(), r.jobsCompleted()));
        }
        for (PolicyResult r : outcome.results()) {
            if (!r.violations().isEmpty()) {
                out.append(r.name()).append(": ").append(r.violations().size())
                        .append(" jobs lost to an instance stopped under them\n");
            }
            if (r.evictions() > 0) {
                out.append(r.name()).append(": ").append(r.evictions()).append(String.format(Locale.ROOT,
                        " Spot evictions; %.1f instances active on average%n", r.meanActive()));
            }
            if (r.jobsCompleted() < outcome.jobs()) {
                out.append(r.name()).append(": ").append(outcome.jobs() - r.jobsCompleted()).append(" of ")
                        .append(outcome.jobs()).append(" jobs did not finish (wider than its nodes, or evicted too "
                        + "often to finish)\n");
            }
        }
        return out.toString();
    }

    private static String waits(PolicyResult r) {
        return DurationText.of(r.meanWaitSeconds()) + " / " + DurationText.of(r.medianWaitSeconds()) + " / "
                + DurationText.of(r.p95WaitSeconds());
    }

    public static String json(Simulation.Outcome outcome) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        for (PolicyResult r : outcome.results()) {
            ObjectNode policy = root.putObject(r.name());
            policy.put("nodeHours", round(r.nodeHours()));
            policy.put("idleNodeHours", round(r.idleNodeHours()));
            if (!r.series().isEmpty()) {
                policy.put("meanActiveInstances", round(r.meanActive()));
            }
            policy.put("meanWaitSeconds", round(r.meanWaitSeconds()));
            policy.put("medianWaitSeconds", round(r.medianWaitSeconds()));
            policy.put("p95WaitSeconds", round(r.p95WaitSeconds()));
            policy.put("meanBoundedSlowdown", round(r.meanBoundedSlowdown()));
            policy.put("starts", r.starts());
            policy.put("stops", r.stops());
            policy.put("peakNodes", r.peakNodes());
            policy.put("jobsCompleted", r.jobsCompleted());
        }
        try {
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String html(Simulation.Outcome outcome, String title, String settings) {
        StringBuilder page = new StringBuilder();
        page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(escape(title)).append("</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:980px}"
                + "table{border-collapse:collapse}td,th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right}"
                + "th:first-child,td:first-child{text-align:left}svg text{font-size:11px;font-family:sans-serif}"
                + "</style></head><body>\n");
        page.append("<h1>").append(escape(title)).append("</h1>\n<p>").append(escape(settings)).append("</p>\n");
        page.append("<p>").append(outcome.jobs()).append(" jobs over ").append(DurationText.of(outcome.span()));
        if (outcome.skippedUnknownRuntime() > 0 || outcome.skippedTooWide() > 0) {
            page.append("; left out: ").append(outcome.skippedUnknownRuntime()).append(" with unknown run time, ")
                    .append(outcome.skippedTooWide()).append(" wider than the pool");
        }
        page.append(".</p>\n<table><tr><th>policy</th><th>node-hours</th><th>idle node-hours</th><th>idle share</th>"
                + "<th>mean wait</th><th>median wait</th><th>95th pct wait</th><th>bounded slowdown</th><th>starts</th>"
                + "<th>stops</th><th>peak nodes</th><th>jobs done</th></tr>\n");
        for (PolicyResult r : outcome.results()) {
            page.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%.1f</td><td>%.1f</td><td>%.1f%%</td><td>%s</td>"
                    + "<td>%s</td><td>%s</td><td>%.2f</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>%n",
                    escape(r.name()), r.nodeHours(), r.idleNodeHours(),
                    r.nodeHours() == 0 ? 0 : 100 * r.idleNodeHours() / r.nodeHours(),
                    DurationText.of(r.meanWaitSeconds()), DurationText.of(r.medianWaitSeconds()),
                    DurationText.of(r.p95WaitSeconds()), r.meanBoundedSlowdown(), r.starts(), r.stops(), r.peakNodes(),
                    r.jobsCompleted()));
        }
        page.append("</table>\n<h2>Nodes up and nodes demanded</h2>\n<p>Blue: instances starting or running. "
                + "Red: nodes the queued and running jobs ask for. Horizontal axis: days since the first job.</p>\n");
        for (PolicyResult r : outcome.results()) {
            if (!r.series().isEmpty()) {
                page.append("<h3>").append(escape(r.name())).append("</h3>\n").append(nodesChart(r)).append('\n');
            }
        }
        page.append("<h2>Job waits</h2>\n<p>Share of jobs that waited at most a given time (log scale).</p>\n")
                .append(waitChart(outcome.results())).append("\n</body></html>\n");
        return page.toString();
    }

    private static String nodesChart(PolicyResult r) {
        List<PolicyResult.Sample> series = r.series();
        double end = series.get(series.size() - 1).seconds();
        int top = 1;
        for (PolicyResult.Sample s : series) {
            top = Math.max(top, Math.max(s.active(), s.demanded()));
        }
        int buckets = 1200;
        double span = Math.max(1, end);
        int[] active = new int[buckets];
        int[] demanded = new int[buckets];
        int ai = 0;
        int lastActive = 0;
        int lastDemanded = 0;
        for (int b = 0; b < buckets; b++) {
            double bucketEnd = span * (b + 1) / buckets;
            int maxActive = lastActive;
            int maxDemanded = lastDemanded;
            while (ai < series.size() && series.get(ai).seconds() <= bucketEnd) {
                lastActive = series.get(ai).active();
                lastDemanded = series.get(ai).demanded();
                maxActive = Math.max(maxActive, lastActive);
                maxDemanded = Math.max(maxDemanded, lastDemanded);
                ai++;
            }
            active[b] = maxActive;
            demanded[b] = maxDemanded;
        }
        StringBuilder svg = frame();
        double plotWidth = WIDTH - 2 * MARGIN;
        double plotHeight = HEIGHT - 2 * MARGIN;
        for (int i = 0; i <= 4; i++) {
            double y = HEIGHT - MARGIN - plotHeight * i / 4;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#eee\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>%n", MARGIN, y, WIDTH - MARGIN, y,
                    MARGIN - 5, y + 4, top * i / 4));
        }
        double days = span / 86400;
        int dayStep = Math.max(1, (int) Math.ceil(days / 10));
        for (int d = 0; d <= days; d += dayStep) {
            double x = MARGIN + plotWidth * d * 86400 / span;
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>%n", x,
                    HEIGHT - MARGIN + 15, d));
        }
        svg.append(polyline(demanded, top, plotWidth, plotHeight, COLORS[1]));
        svg.append(polyline(active, top, plotWidth, plotHeight, COLORS[0]));
        return svg.append("</svg>").toString();
    }

    private static String polyline(int[] values, int top, double plotWidth, double plotHeight, String color) {
        StringBuilder points = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            double x = MARGIN + plotWidth * i / (values.length - 1);
            double y = HEIGHT - MARGIN - plotHeight * values[i] / top;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        return "<polyline fill=\"none\" stroke=\"" + color + "\" stroke-width=\"1\" points=\"" + points + "\"/>\n";
    }

    private static String waitChart(List<PolicyResult> results) {
        double max = 1;
        for (PolicyResult r : results) {
            for (double w : r.waitsSeconds()) {
                max = Math.max(max, w);
            }
        }
        double logMax = Math.log10(Math.max(10, max));
        StringBuilder svg = frame();
        double plotWidth = WIDTH - 2 * MARGIN;
        double plotHeight = HEIGHT - 2 * MARGIN;
        for (int e = 0; e <= Math.ceil(logMax); e++) {
            double x = MARGIN + plotWidth * e / logMax;
            if (x > WIDTH - MARGIN + 1) {
                break;
            }
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x, MARGIN, x, HEIGHT - MARGIN,
                    x, HEIGHT - MARGIN + 15, DurationText.of(Math.pow(10, e))));
        }
        for (int p = 0; p <= 4; p++) {
            double y = HEIGHT - MARGIN - plotHeight * p / 4;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>%n",
                    MARGIN - 5, y + 4, p * 25));
        }
        int colour = 0;
        for (PolicyResult r : results) {
            List<Double> waits = new ArrayList<>(r.waitsSeconds());
            if (waits.isEmpty()) {
                continue;
            }
            waits.sort(Double::compare);
            StringBuilder points = new StringBuilder();
            int steps = Math.min(600, waits.size());
            for (int i = 1; i <= steps; i++) {
                int index = (int) ((long) i * waits.size() / steps) - 1;
                double x = MARGIN + plotWidth * Math.log10(Math.max(1, waits.get(index))) / logMax;
                double y = HEIGHT - MARGIN - plotHeight * (index + 1) / waits.size();
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
            }
            String color = COLORS[colour % COLORS.length];
            svg.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"1.5\" points=\"")
                    .append(points).append("\"/>\n");
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>%n",
                    WIDTH - MARGIN - 110, MARGIN + 14 * colour, color, escape(r.name())));
            colour++;
        }
        return svg.append("</svg>").toString();
    }

    private static StringBuilder frame() {
        return new StringBuilder(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                + "height=\"%d\" viewBox=\"0 0 %d %d\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#999\"/>%n", WIDTH, HEIGHT, WIDTH, HEIGHT, MARGIN, MARGIN, WIDTH - 2 * MARGIN,
                HEIGHT - 2 * MARGIN));
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
