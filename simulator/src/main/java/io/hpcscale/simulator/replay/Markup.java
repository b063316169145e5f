package io.hpcscale.simulator.replay;

/** Text put into the HTML report and its SVG charts, which are also read as XML. */
final class Markup {
    private Markup() {
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
