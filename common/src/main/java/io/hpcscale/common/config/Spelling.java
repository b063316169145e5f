package io.hpcscale.common.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean": the candidate nearest a misspelt name, by edit distance, ignoring case. */
public final class Spelling {
    private Spelling() {
    }

    /** The nearest candidate within {@code at most} edits, if any. */
    public static Optional<String> nearest(String name, Collection<String> candidates, int atMost) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int distance = distance(name.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                bestDistance = distance;
                best = candidate;
            }
        }
        return bestDistance <= atMost ? Optional.ofNullable(best) : Optional.empty();
    }

    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
