package io.hpcscale.scaler.check;

import java.util.List;

/**
 * One thing {@code check} looked at and what it found, in words an administrator can act on.
 *
 * @param ok       false when it stops or misleads the scaler
 * @param sentence what was found and, for a problem, which setting or grant to change
 * @param details  one line each, for findings that name several things (missing actions, unmatched nodes)
 */
public record Finding(boolean ok, String sentence, List<String> details) {
    public Finding {
        details = List.copyOf(details);
    }

    public static Finding ok(String sentence) {
        return new Finding(true, sentence, List.of());
    }

    public static Finding problem(String sentence) {
        return new Finding(false, sentence, List.of());
    }

    public static Finding problem(String sentence, List<String> details) {
        return new Finding(false, sentence, details);
    }
}
