package io.hpcscale.agent.slurm;

import java.util.ArrayList;
import java.util.List;

/** Slurm hostlists: {@code node[1-3,7],cnode01,gpu[01-02]-ib} to node names. */
final class Hostlists {
    private static final int MAX_HOSTS = 100_000;

    private Hostlists() {
    }

    /** @throws IllegalArgumentException for a hostlist that is not one, naming it */
    static List<String> expand(String hostlist) {
        List<String> names = new ArrayList<>();
        if (hostlist == null || hostlist.isBlank()) {
            return names;
        }
        for (String item : splitTopLevel(hostlist.strip())) {
            expandItem(item, hostlist, names);
        }
        return names;
    }

    private static List<String> splitTopLevel(String text) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                items.add(text.substring(start, i));
                start = i + 1;
            }
        }
        items.add(text.substring(start));
        return items;
    }

    private static void expandItem(String item, String whole, List<String> out) {
        int open = item.indexOf('[');
        if (open < 0) {
            if (item.isEmpty()) {
                throw new IllegalArgumentException("hostlist '" + whole + "' has an empty name");
            }
            out.add(item);
            return;
        }
        int close = item.indexOf(']', open);
        if (close < 0) {
            throw new IllegalArgumentException("hostlist '" + whole + "' has an unclosed '['");
        }
        String prefix = item.substring(0, open);
        String suffix = item.substring(close + 1);
        for (String range : item.substring(open + 1, close).split(",")) {
            String[] bounds = range.split("-", 2);
            try {
                long low = Long.parseLong(bounds[0]);
                long high = bounds.length == 2 ? Long.parseLong(bounds[1]) : low;
                if (high < low || high - low >= MAX_HOSTS) {
                    throw new IllegalArgumentException("hostlist '" + whole + "' has the range '" + range + "'");
                }
                int width = bounds[0].length();
                for (long n = low; n <= high; n++) {
                    expandItem(prefix + String.format("%0" + width + "d", n) + suffix, whole, out);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("hostlist '" + whole + "' has the range '" + range + "'");
            }
        }
    }
}
