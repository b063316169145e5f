package io.hpcscale.scaler.cloud;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A configured command such as {@code /usr/local/sbin/power-on --bmc {instance} --host {node}}: split into arguments
 * once, at start-up (single and double quotes group words; there is no shell), with placeholders replaced per call.
 */
public final class CommandTemplate {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z]+)}");

    private final List<String> words;

    private CommandTemplate(List<String> words) {
        this.words = List.copyOf(words);
    }

    /** @throws IllegalArgumentException naming what is wrong: unbalanced quotes or an unknown placeholder */
    public static CommandTemplate parse(String text, Set<String> placeholders) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("a " + quote + " quote is not closed");
        }
        if (inWord) {
            words.add(word.toString());
        }
        if (words.isEmpty()) {
            throw new IllegalArgumentException("the command is empty");
        }
        for (String w : words) {
            Matcher m = PLACEHOLDER.matcher(w);
            while (m.find()) {
                if (!placeholders.contains(m.group(1))) {
                    throw new IllegalArgumentException("{" + m.group(1) + "} is not a placeholder here; use "
                            + String.join(" or ", placeholders.stream().sorted().map(p -> "{" + p + "}").toList()));
                }
            }
        }
        return new CommandTemplate(words);
    }

    public List<String> render(Map<String, String> values) {
        List<String> argv = new ArrayList<>(words.size());
        for (String w : words) {
            Matcher m = PLACEHOLDER.matcher(w);
            argv.add(m.replaceAll(r -> Matcher.quoteReplacement(values.getOrDefault(r.group(1), r.group()))));
        }
        return argv;
    }
}
