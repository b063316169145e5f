package io.hpcscale.simulator.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;

/**
 * The simulator's results as a text table, as JSON, and as an HTML page with SVG charts. Each takes the price of a
 * node-hour, or null when none was given: a cost is shown only when there is a price to compute it from.
 */
public final class SimulationReport {
    private SimulationReport() {
    }

    public static String text(Simulation.Outcome outcome, NodeHourPrice price) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%-17s %12s %22s %33s %10s %8s %8s %6s %6s%n", "policy", "node-hours",
                "idle node-hours", "wait mean / median / p95", "bounded", "starts", "stops", "peak", "jobs"));
        out.append(String.format(Locale.ROOT, "%-17s %12s %22s %33s %10s %8s %8s %6s %6s%n", "", "", "(share)", "",
                "slowdown", "", "", "nodes", "done"));
        for (PolicyResult r : outcome.results()) {
            double share = r.nodeHours() == 0 ? 0 : 100 * r.idleNodeHours() / r.nodeHours();
            out.append(String.format(Locale.ROOT, "%-17s %12.1f %14.1f (%4.1f%%) %33s %10.2f %8d %8d %6d %6d%n",
                    r.name(), r.nodeHours(), r.idleNodeHours(), share, waits(r),
                    r.meanBoundedSlowdown(), r.starts(), r.stops(), r.peakNodes(), r.jobsCompleted()));
        }
        if (price != null) {
            for (PolicyResult r : outcome.results()) {
                out.append(String.format(Locale.ROOT, "%s: cost %s (%.1f node-hours at %s per node-hour)%n", r.name(),
                        price.costText(r), r.nodeHours(), price));
            }
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

    public static String json(Simulation.Outcome outcome, NodeHourPrice price) {
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
            if (price != null) {
                policy.put("cost", round(price.cost(r)));
            }
        }
        try {
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String html(Simulation.Outcome outcome, NodeHourPrice price, String title, String settings) {
        StringBuilder page = new StringBuilder();
        page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(Markup.escape(title)).append("</title>\n<style>"
                + "body{font-family:sans-serif;margin:2em;max-width:980px}table{border-collapse:collapse}"
                + "td,th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:right}"
                + "th:first-child,td:first-child{text-align:left}svg{max-width:100%;height:auto}"
                + "svg text{font-size:11px;font-family:sans-serif}"
                + "</style></head><body>\n");
        page.append("<h1>").append(Markup.escape(title)).append("</h1>\n<p>").append(Markup.escape(settings))
                .append("</p>\n");
        page.append("<p>").append(outcome.jobs()).append(" jobs over ").append(DurationText.of(outcome.span()));
        if (outcome.skippedUnknownRuntime() > 0 || outcome.skippedTooWide() > 0) {
            page.append("; left out: ").append(outcome.skippedUnknownRuntime()).append(" with unknown run time, ")
                    .append(outcome.skippedTooWide()).append(" wider than the pool");
        }
        page.append(".</p>\n");
        if (price != null) {
            page.append("<p>Cost: node-hours at ").append(price).append(" per node-hour.</p>\n");
        }
        page.append("<table><tr><th>policy</th><th>node-hours</th>").append(price == null ? "" : "<th>cost</th>")
                .append("<th>idle node-hours</th><th>idle share</th><th>mean wait</th><th>median wait</th>"
                + "<th>95th pct wait</th><th>bounded slowdown</th><th>starts</th><th>stops</th><th>peak nodes</th>"
                + "<th>jobs done</th></tr>\n");
        for (PolicyResult r : outcome.results()) {
            page.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%.1f</td>", Markup.escape(r.name()),
                    r.nodeHours()));
            if (price != null) {
                page.append("<td>").append(price.costText(r)).append("</td>");
            }
            page.append(String.format(Locale.ROOT, "<td>%.1f</td><td>%.1f%%</td><td>%s</td><td>%s</td><td>%s</td>"
                    + "<td>%.2f</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>%n", r.idleNodeHours(),
                    r.nodeHours() == 0 ? 0 : 100 * r.idleNodeHours() / r.nodeHours(),
                    DurationText.of(r.meanWaitSeconds()), DurationText.of(r.medianWaitSeconds()),
                    DurationText.of(r.p95WaitSeconds()), r.meanBoundedSlowdown(), r.starts(), r.stops(), r.peakNodes(),
                    r.jobsCompleted()));
        }
        page.append("</table>\n");
        if (outcome.results().stream().anyMatch(r -> r.name().equals("oracle"))) {
            page.append("<h2>What each policy paid, against how long its jobs waited</h2>\n<p>Node-hours as a "
                    + "multiple of the oracle's, which no policy can pay less than; mean wait from submission to "
                    + "start. The nearer the bottom left, the better.</p>\n").append(CostWaitChart.of(
                    outcome.results())).append('\n');
        }
        page.append("<h2>Nodes up and nodes demanded</h2>\n<p>Every chart has the same scales: time to "
                + "the end of the longest replay, and nodes to just above the most any policy had up. Demand above "
                + "that runs along the top edge, and a red bar above the chart marks when.</p>\n");
        NodesCharts nodesCharts = NodesCharts.scaledFor(outcome.results());
        for (PolicyResult r : outcome.results()) {
            if (!r.series().isEmpty()) {
                page.append("<h3>").append(Markup.escape(r.name())).append("</h3>\n").append(nodesCharts.chart(r))
                        .append('\n');
            }
        }
        page.append("<h2>Job waits</h2>\n").append(WaitChart.of(outcome.results())).append("\n</body></html>\n");
        return page.toString();
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
