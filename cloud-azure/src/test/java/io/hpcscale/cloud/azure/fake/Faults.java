package io.hpcscale.cloud.azure.fake;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The faults a test has armed. Each matches a method and a regular expression found in the normalised path
 * (case-insensitive, no query), and fires for its next {@code times} matching requests; the first armed rule
 * that matches wins.
 */
public final class Faults {
    public static final int ALWAYS = Integer.MAX_VALUE;

    private static final class Rule {
        final String method;
        final Pattern path;
        final Fault fault;
        int remaining;

        Rule(String method, Pattern path, int remaining, Fault fault) {
            this.method = method;
            this.path = path;
            this.remaining = remaining;
            this.fault = fault;
        }
    }

    private final List<Rule> rules = new ArrayList<>();

    /** {@code method} may be "*" for any. */
    public synchronized Faults inject(String method, String pathRegex, int times, Fault fault) {
        if (times < 1) {
            throw new IllegalArgumentException("times must be at least 1");
        }
        rules.add(new Rule(method, Pattern.compile(pathRegex, Pattern.CASE_INSENSITIVE), times, fault));
        return this;
    }

    public Faults always(String method, String pathRegex, Fault fault) {
        return inject(method, pathRegex, ALWAYS, fault);
    }

    public synchronized void clear() {
        rules.clear();
    }

    synchronized Fault take(String method, String path) {
        Iterator<Rule> it = rules.iterator();
        while (it.hasNext()) {
            Rule rule = it.next();
            if ((rule.method.equals("*") || rule.method.equalsIgnoreCase(method)) && rule.path.matcher(path).find()) {
                if (rule.remaining != ALWAYS && --rule.remaining == 0) {
                    it.remove();
                }
                return rule.fault;
            }
        }
        return null;
    }
}
