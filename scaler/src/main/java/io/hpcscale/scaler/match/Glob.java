package io.hpcscale.scaler.match;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Shell-style matching of a string property against a constraint's value, as the library does with Python's
 * {@code fnmatch} on Linux (case-sensitive): {@code *} any run, {@code ?} one character, {@code [...]} one of a set,
 * {@code [!...]} none of it. {@code Standard_F*} matches every F-series size.
 */
final class Glob {
    /** Patterns come from jobs: beyond this many the cache starts again rather than grow for ever. */
    private static final int MAX_KEPT = 1_000;
    private static final Map<String, Pattern> COMPILED = new ConcurrentHashMap<>();

    private Glob() {
    }

    static boolean matches(String pattern, String value) {
        if (pattern.indexOf('*') < 0 && pattern.indexOf('?') < 0 && pattern.indexOf('[') < 0) {
            return pattern.equals(value);
        }
        if (COMPILED.size() >= MAX_KEPT) {
            COMPILED.clear();
        }
        return COMPILED.computeIfAbsent(pattern, Glob::compile).matcher(value).matches();
    }

    private static Pattern compile(String glob) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                case '[' -> {
                    int end = glob.indexOf(']', i + 2);
                    if (end < 0) {
                        regex.append("\\[");
                    } else {
                        String set = glob.substring(i + 1, end);
                        regex.append('[').append(set.startsWith("!") ? "^" + quoteSet(set.substring(1))
                                : quoteSet(set)).append(']');
                        i = end;
                    }
                }
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    private static String quoteSet(String set) {
        return set.replace("\\", "\\\\").replace("[", "\\[").replace("^", "\\^").replace("&", "\\&");
    }
}
