package io.hpcscale.common.config;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Finds keys a properties file gives more than once. {@link Properties} keeps the last silently, so an administrator
 * who appends a changed line below the old one, or copies a pool and forgets to rename a key, would get one value
 * without knowing which. Each logical line is read by {@link Properties} itself, so keys are spelled as it reads
 * them (escapes, {@code :} or blanks as separators, continuation lines).
 */
final class RepeatedKeys {
    private RepeatedKeys() {
    }

    /** Every key given more than once, with the numbers of the lines that give it, in file order. */
    static Map<String, List<Integer>> in(List<String> lines) {
        Map<String, List<Integer>> linesOf = new LinkedHashMap<>();
        int i = 0;
        while (i < lines.size()) {
            int first = i;
            String trimmed = lines.get(first).strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("!")) {
                // A comment ends at its line, even with a backslash at the end, as Properties reads it.
                i++;
                continue;
            }
            StringBuilder logical = new StringBuilder(lines.get(i));
            while (endsInContinuation(lines.get(i)) && i + 1 < lines.size()) {
                i++;
                logical.append('\n').append(lines.get(i));
            }
            i++;
            Properties one = new Properties();
            try {
                one.load(new StringReader(logical.toString()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (String key : one.stringPropertyNames()) {
                linesOf.computeIfAbsent(key.trim(), k -> new ArrayList<>()).add(first + 1);
            }
        }
        linesOf.values().removeIf(numbers -> numbers.size() < 2);
        return linesOf;
    }

    private static boolean endsInContinuation(String line) {
        int backslashes = 0;
        for (int k = line.length() - 1; k >= 0 && line.charAt(k) == '\\'; k--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }
}
