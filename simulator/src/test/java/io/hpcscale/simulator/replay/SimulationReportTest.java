package io.hpcscale.simulator.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/** The reports read back as a person reads them, on results made to show what each is about. */
class SimulationReportTest {
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+)([dhms])");
    private static final String UNITS = "dhms";
    private static final long[] UNIT_SECONDS = {86_400, 3600, 60, 1};
    private static final long[] UNIT_LIMITS = {Long.MAX_VALUE, 24, 60, 60};
    private static final Pattern SVG = Pattern.compile("<svg .*?</svg>", Pattern.DOTALL);
    /** Wider than any glyph of 11-pixel sans-serif, so a label this wide surely fits. */
    private static final double CHARACTER_WIDTH = 7;

    /** One chart of the HTML report, read as the XML it is. */
    record Chart(Element svg) {
        String label() {
            return svg.getAttribute("aria-label");
        }

        boolean isNodes() {
            return label().endsWith(": nodes up and nodes demanded");
        }

        double width() {
            return number(svg, "width");
        }

        double height() {
            return number(svg, "height");
        }

        Element plot() {
            return only("rect", "plot");
        }

        double plotLeft() {
            return number(plot(), "x");
        }

        double plotRight() {
            return plotLeft() + number(plot(), "width");
        }

        double plotTop() {
            return number(plot(), "y");
        }

        double plotBottom() {
            return plotTop() + number(plot(), "height");
        }

        List<Element> elements(String tag, String role) {
            NodeList nodes = svg.getElementsByTagName(tag);
            return IntStream.range(0, nodes.getLength()).mapToObj(i -> (Element) nodes.item(i))
                    .filter(e -> e.getAttribute("class").equals(role)).toList();
        }

        Element only(String tag, String role) {
            List<Element> found = elements(tag, role);
            assertEquals(1, found.size(), label() + ": one " + tag + " " + role);
            return found.get(0);
        }

        List<String> texts(String role) {
            return elements("text", role).stream().map(Element::getTextContent).toList();
        }

        /** The points of the one line drawn for {@code role}, in pixels. */
        List<double[]> points(String role) {
            List<double[]> points = new ArrayList<>();
            for (String pair : only("polyline", role).getAttribute("points").trim().split("\\s+")) {
                String[] xy = pair.split(",");
                points.add(new double[] {Double.parseDouble(xy[0]), Double.parseDouble(xy[1])});
            }
            return points;
        }

        Element legend() {
            return only("g", "legend");
        }

        /** The pixel height of {@code nodes} on this chart's vertical axis, read from its tick labels. */
        double yOf(double nodes) {
            List<Element> ticks = elements("text", "y-tick");
            Element low = ticks.get(0);
            Element high = ticks.get(ticks.size() - 1);
            double lowValue = Double.parseDouble(low.getTextContent());
            double highValue = Double.parseDouble(high.getTextContent());
            return number(low, "y") + (number(high, "y") - number(low, "y")) * (nodes - lowValue)
                    / (highValue - lowValue);
        }

        double topTick() {
            return texts("y-tick").stream().mapToDouble(Double::parseDouble).max().orElseThrow();
        }
    }

    static double number(Element element, String attribute) {
        return Double.parseDouble(element.getAttribute(attribute));
    }

    /** Every chart of an HTML report, each of which must be well-formed XML. */
    static List<Chart> charts(String html) {
        List<Chart> charts = new ArrayList<>();
        Matcher svg = SVG.matcher(html);
        while (svg.find()) {
            try {
                charts.add(new Chart(DocumentBuilderFactory.newInstance().newDocumentBuilder()
                        .parse(new InputSource(new StringReader(svg.group()))).getDocumentElement()));
            } catch (ParserConfigurationException | SAXException | IOException e) {
                throw new AssertionError("a chart is not well-formed: " + e.getMessage(), e);
            }
        }
        return charts;
    }

    private static Chart chart(List<Chart> charts, String labelStart) {
        return charts.stream().filter(c -> c.label().startsWith(labelStart)).findFirst().orElseThrow();
    }

    static PolicyResult result(String name, double nodeHours, List<Double> waits, List<PolicyResult.Sample> series) {
        List<Double> sorted = waits.stream().sorted().toList();
        double mean = waits.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        int peak = series.stream().mapToInt(PolicyResult.Sample::active).max().orElse(0);
        double p95 = sorted.get(Math.max(0, (int) Math.ceil(0.95 * sorted.size()) - 1));
        return new PolicyResult(name, nodeHours, nodeHours / 10, mean, sorted.get(sorted.size() / 2), p95, 1, 1, 1,
                peak, waits.size(), List.of(), 0, series, waits);
    }

    private static PolicyResult.Sample at(double hours, int active, int demanded) {
        return new PolicyResult.Sample(hours * 3600, active, demanded);
    }

    /**
     * Two policies whose charts look nothing alike on their own scales: one runs ten hours with 40 nodes up under a
     * queue demanding 1,000, the other five hours with 12 nodes; the oracle has no chart.
     */
    private static Simulation.Outcome unalike() {
        return outcome(Duration.ofHours(4),
                result("hpcscale", 200, List.of(60.0, 600.0, 7200.0), List.of(at(0, 0, 0), at(1, 40, 1000),
                        at(2, 30, 30), at(10, 5, 0))),
                result("static:12", 60, List.of(30.0, 300.0, 3000.0), List.of(at(0, 12, 0), at(0.5, 12, 12),
                        at(5, 12, 0))),
                result("oracle", 50, List.of(180.0, 180.0, 180.0), List.of()));
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
    void placesEachPolicyByItsNodeHoursAgainstTheOraclesAndItsMeanWait() {
        // hpcscale: 4 times the oracle's 50 node-hours, mean wait 2,620 s; static:12: 1.2 times, 1,110 s.
        Chart chart = chart(charts(SimulationReport.html(unalike(), null, "t", "s")), "node-hours against mean wait");
        List<Element> dots = chart.elements("circle", "policy");
        assertEquals(List.of("hpcscale", "static:12", "oracle"), dots.stream()
                .map(d -> d.getElementsByTagName("title").item(0).getTextContent()).toList());
        double width = chart.plotRight() - chart.plotLeft();
        double height = chart.plotBottom() - chart.plotTop();
        // Across from 1 to 1 + 5 (the round span above 3); up from 0 to 1.1 times the longest mean wait.
        assertEquals(chart.plotLeft() + width * 3 / 5, number(dots.get(0), "cx"), 1);
        assertEquals(chart.plotLeft() + width * 0.2 / 5, number(dots.get(1), "cx"), 1);
        assertEquals(chart.plotLeft(), number(dots.get(2), "cx"), 1);
        assertEquals(chart.plotBottom() - height / 1.1, number(dots.get(0), "cy"), 1);
        assertEquals(chart.plotBottom() - height * 1110 / (2620 * 1.1), number(dots.get(1), "cy"), 1);
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
                SimulationReport.text(outcome, null));
        assertTrue(row.find(), SimulationReport.text(outcome, null));
        String html = SimulationReport.html(outcome, null, "t", "s");
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

    @Test
    void everyPolicyChartSharesOneScale() {
        List<Chart> nodes = charts(SimulationReport.html(unalike(), null, "t", "s")).stream().filter(Chart::isNodes)
                .toList();
        assertEquals(2, nodes.size(), "one chart per policy with a series");
        Chart busy = chart(nodes, "hpcscale");
        Chart small = chart(nodes, "static:12");
        assertEquals(busy.texts("y-tick"), small.texts("y-tick"));
        assertEquals(busy.texts("x-tick"), small.texts("x-tick"));
        assertTrue(busy.topTick() >= 40, "the axis reaches the most nodes any policy had up: " + busy.topTick());

        double highestSmall = small.points("active").stream().mapToDouble(p -> p[1]).min().orElseThrow();
        assertEquals(small.yOf(12), highestSmall, 1, "12 nodes sit where 12 is on the shared axis");
        double highestBusy = busy.points("active").stream().mapToDouble(p -> p[1]).min().orElseThrow();
        assertEquals(busy.yOf(40), highestBusy, 1);

        double smallEnd = small.points("active").get(small.points("active").size() - 1)[0];
        assertEquals(small.plotLeft() + (small.plotRight() - small.plotLeft()) / 2, smallEnd, 2,
                "five hours of ten end half-way along the shared time axis");
        double busyEnd = busy.points("active").get(busy.points("active").size() - 1)[0];
        assertEquals(busy.plotRight(), busyEnd, 2, "the longest replay spans the axis");
    }

    @Test
    void nodesUpStayReadableWhenDemandIsFarLarger() {
        Chart busy = chart(charts(SimulationReport.html(unalike(), null, "t", "s")), "hpcscale");
        assertTrue(busy.topTick() < 100, "the axis follows the 40 nodes up, not the 1,000 demanded: "
                + busy.texts("y-tick"));
        double plotHeight = busy.plotBottom() - busy.plotTop();
        double highest = busy.points("active").stream().mapToDouble(p -> p[1]).min().orElseThrow();
        assertTrue(busy.plotBottom() - highest >= plotHeight / 2, "40 nodes up fill at least half the plot");
        for (double[] p : busy.points("demanded")) {
            assertTrue(p[1] >= busy.plotTop() - 0.01 && p[1] <= busy.plotBottom() + 0.01,
                    "demand off the scale is drawn at the top edge, not outside: " + p[1]);
        }
        List<Element> marks = busy.elements("line", "off-scale");
        assertEquals(1, marks.size(), "one stretch of demand off the scale");
        Element mark = marks.get(0);
        double plotWidth = busy.plotRight() - busy.plotLeft();
        assertTrue(number(mark, "y1") < busy.plotTop() && number(mark, "y2") < busy.plotTop(), "above the plot");
        assertEquals(busy.plotLeft() + plotWidth * 0.1, number(mark, "x1"), 2, "from hour 1");
        assertEquals(busy.plotLeft() + plotWidth * 0.2, number(mark, "x2"), 2, "to hour 2");
        assertTrue(busy.legend().getTextContent().contains("peak 1000"), busy.legend().getTextContent());

        Chart small = chart(charts(SimulationReport.html(unalike(), null, "t", "s")), "static:12");
        assertTrue(small.elements("line", "off-scale").isEmpty(), "its demand stayed on the scale");
    }

    @Test
    void legendSitsOutsideThePlot() {
        List<PolicyResult> many = new ArrayList<>(unalike().results());
        for (int i = 0; i < 14; i++) {
            many.add(result("static:" + (100 + i), 10, List.of(10.0 * i + 1), List.of(at(0, 1, 1))));
        }
        List<Chart> charts = charts(SimulationReport.html(outcome(Duration.ofHours(1),
                many.toArray(PolicyResult[]::new)), null, "t", "s"));
        assertEquals(many.size() + 1, charts.size(), "cost against wait, a nodes chart per policy but the oracle, "
                + "and the waits");
        for (Chart chart : charts) {
            Element legend = chart.legend();
            NodeList lines = legend.getElementsByTagName("line");
            NodeList texts = legend.getElementsByTagName("text");
            assertTrue(texts.getLength() >= 2, chart.label() + ": the legend names what is drawn");
            for (int i = 0; i < lines.getLength(); i++) {
                Element line = (Element) lines.item(i);
                assertTrue(Math.min(number(line, "x1"), number(line, "x2")) > chart.plotRight(),
                        chart.label() + ": a legend swatch right of the plot");
            }
            for (int i = 0; i < texts.getLength(); i++) {
                Element text = (Element) texts.item(i);
                double left = number(text, "x");
                assertTrue(left > chart.plotRight(), chart.label() + ": legend text right of the plot");
                assertTrue(left + CHARACTER_WIDTH * text.getTextContent().length() <= chart.width(),
                        chart.label() + ": '" + text.getTextContent() + "' fits in the chart");
                assertTrue(number(text, "y") <= chart.height(), chart.label() + ": every entry within the chart");
            }
        }
        Chart waits = chart(charts, "share of jobs");
        String legend = waits.legend().getTextContent();
        for (PolicyResult r : many) {
            assertTrue(legend.contains(r.name()), r.name() + " in " + legend);
        }
    }

    @Test
    void everyChartHasAxisTitles() {
        List<Chart> charts = charts(SimulationReport.html(unalike(), null, "t", "s"));
        assertEquals(4, charts.size(), "cost against wait, two nodes charts, the waits");
        for (Chart chart : charts) {
            Element x = chart.only("text", "x-title");
            Element y = chart.only("text", "y-title");
            assertTrue(number(x, "y") > chart.plotBottom(), chart.label() + ": x title below the plot");
            assertTrue(number(y, "x") < chart.plotLeft() && y.getAttribute("transform").startsWith("rotate(-90"),
                    chart.label() + ": y title left of the plot, along it");
            String xTitle = x.getTextContent();
            String yTitle = y.getTextContent();
            if (chart.isNodes()) {
                assertTrue(xTitle.contains("time") && xTitle.contains("hours"), xTitle);
                assertEquals("nodes", yTitle);
            } else if (chart.label().startsWith("node-hours against mean wait")) {
                assertEquals("node-hours, times the oracle's", xTitle);
                assertEquals("mean wait", yTitle);
            } else {
                assertTrue(xTitle.contains("wait") && xTitle.contains("log scale"), xTitle);
                assertTrue(yTitle.contains("share of jobs"), yTitle);
            }
        }
    }

    @Test
    void costAppearsPerPolicyOnlyWithAPrice() throws IOException {
        Simulation.Outcome outcome = unalike();
        NodeHourPrice price = new NodeHourPrice(0.35);

        Map<String, String> textCosts = new HashMap<>();
        Matcher line = Pattern.compile("(?m)^(\\S+): cost (\\d+\\.\\d\\d) ")
                .matcher(SimulationReport.text(outcome, price));
        while (line.find()) {
            textCosts.put(line.group(1), line.group(2));
        }
        JsonNode json = new ObjectMapper().readTree(SimulationReport.json(outcome, price));
        String html = SimulationReport.html(outcome, price, "t", "s");
        int costColumn = cells(html, "<tr><th>policy").indexOf("cost");
        assertTrue(costColumn > 0, "the table has a cost column");
        for (PolicyResult r : outcome.results()) {
            double cost = r.nodeHours() * 0.35;
            assertEquals(cost, Double.parseDouble(textCosts.get(r.name())), 0.005, r.name() + " in the text");
            assertTrue(json.get(r.name()).get("cost").isNumber(), r.name() + ": a number in the JSON");
            assertEquals(cost, json.get(r.name()).get("cost").asDouble(), 0.005, r.name() + " in the JSON");
            String cell = cells(html, "<tr><td>" + r.name() + "<").get(costColumn);
            assertTrue(cell.matches("\\d+\\.\\d\\d"), "two decimals, no currency: " + cell);
            assertEquals(cost, Double.parseDouble(cell), 0.005, r.name() + " in the HTML");
        }
        assertEquals(outcome.results().size(), textCosts.size(), "one cost line per policy: " + textCosts);

        String text = SimulationReport.text(outcome, null);
        assertFalse(text.contains("cost"), text);
        JsonNode unpriced = new ObjectMapper().readTree(SimulationReport.json(outcome, null));
        for (PolicyResult r : outcome.results()) {
            assertFalse(unpriced.get(r.name()).has("cost"), r.name());
        }
        String unpricedHtml = SimulationReport.html(outcome, null, "t", "s");
        assertFalse(unpricedHtml.contains("cost") || unpricedHtml.contains("Cost"), "no cost without a price");
        assertThrows(IllegalArgumentException.class, () -> new NodeHourPrice(-1));
        assertThrows(IllegalArgumentException.class, () -> new NodeHourPrice(Double.NaN));
    }
}
