package io.hpcscale.common.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the entries of one top-level collection in a scheduler's JSON output without parsing the entries, so each
 * can then be parsed on its own and one broken entry costs only itself. The scanner only follows strings, escapes
 * and brackets; what lies between them may be invalid JSON (PBS prints bare numbers with leading zeros, for one).
 */
public final class JsonMembers {

    /**
     * One entry.
     *
     * @param name  the member name for an object's members, null for array elements
     * @param start offset of the entry's value
     * @param end   offset just after it
     */
    public record Entry(String name, int start, int end) {
        public int length() {
            return end - start;
        }
    }

    /**
     * What the top-level object holds under one key.
     *
     * @param topLevelKeys every key of the top-level object, in order, to tell real output from something else
     */
    public record Section(boolean present, List<Entry> entries, List<String> topLevelKeys) {
    }

    private final byte[] text;
    private int pos;

    private JsonMembers(byte[] text) {
        this.text = text;
    }

    /**
     * The members of the object (or the elements of the array) under {@code key} in the top-level object.
     *
     * @return a section that is not present when the top-level object has no such key
     * @throws MalformedJsonException if the text is not one JSON object, or its structure breaks
     */
    public static Section section(byte[] text, String key) throws MalformedJsonException {
        return new JsonMembers(text).scanTopLevel(key);
    }

    private Section scanTopLevel(String key) throws MalformedJsonException {
        skipWhitespace();
        if (pos >= text.length) {
            throw error("the output is empty");
        }
        expect('{', "the output does not start with a JSON object");
        List<String> keys = new ArrayList<>();
        List<Entry> found = null;
        skipWhitespace();
        if (peek() == '}') {
            pos++;
            return checkEnd(found, keys);
        }
        while (true) {
            skipWhitespace();
            String name = readString();
            skipWhitespace();
            expect(':', "expected ':' after \"" + name + "\"");
            skipWhitespace();
            keys.add(name);
            if (name.equals(key)) {
                found = entries();
            } else {
                skipValue();
            }
            skipWhitespace();
            byte next = next("the top-level object is not closed");
            if (next == '}') {
                return checkEnd(found, keys);
            }
            if (next != ',') {
                throw error("expected ',' or '}' in the top-level object");
            }
        }
    }

    private Section checkEnd(List<Entry> found, List<String> keys) throws MalformedJsonException {
        skipWhitespace();
        if (pos < text.length) {
            throw error("unexpected text after the top-level object");
        }
        return new Section(found != null, found == null ? List.of() : found, keys);
    }

    private List<Entry> entries() throws MalformedJsonException {
        byte open = next("the output ends early");
        List<Entry> entries = new ArrayList<>();
        if (open == '{') {
            skipWhitespace();
            if (peek() == '}') {
                pos++;
                return entries;
            }
            while (true) {
                skipWhitespace();
                String name = readString();
                skipWhitespace();
                expect(':', "expected ':' after \"" + name + "\"");
                skipWhitespace();
                int start = pos;
                skipValue();
                entries.add(new Entry(name, start, trimmedEnd(start, pos)));
                skipWhitespace();
                byte next = next("an object is not closed");
                if (next == '}') {
                    return entries;
                }
                if (next != ',') {
                    throw error("expected ',' or '}' after the entry \"" + name + "\"");
                }
            }
        }
        if (open == '[') {
            skipWhitespace();
            if (peek() == ']') {
                pos++;
                return entries;
            }
            while (true) {
                skipWhitespace();
                int start = pos;
                skipValue();
                entries.add(new Entry(null, start, trimmedEnd(start, pos)));
                skipWhitespace();
                byte next = next("an array is not closed");
                if (next == ']') {
                    return entries;
                }
                if (next != ',') {
                    throw error("expected ',' or ']' between array elements");
                }
            }
        }
        pos--;
        throw error("expected an object or an array");
    }

    private int trimmedEnd(int start, int end) {
        int e = end;
        while (e > start && isWhitespace(text[e - 1])) {
            e--;
        }
        return e;
    }

    /** Skips one value of any kind; scalars end at the next structural character. */
    private void skipValue() throws MalformedJsonException {
        byte first = peek();
        if (first == '"') {
            skipString();
            return;
        }
        if (first == '{' || first == '[') {
            skipContainer();
            return;
        }
        int start = pos;
        while (pos < text.length) {
            byte b = text[pos];
            if (b == ',' || b == '}' || b == ']') {
                break;
            }
            pos++;
        }
        if (pos == start) {
            throw error("a value is missing");
        }
    }

    private void skipContainer() throws MalformedJsonException {
        int depth = 0;
        int start = pos;
        while (pos < text.length) {
            byte b = text[pos];
            if (b == '"') {
                skipString();
                continue;
            }
            pos++;
            if (b == '{' || b == '[') {
                depth++;
            } else if (b == '}' || b == ']') {
                depth--;
                if (depth == 0) {
                    return;
                }
            }
        }
        pos = start;
        throw error("an object or array that starts here is never closed (is the output cut short?)");
    }

    private String readString() throws MalformedJsonException {
        int start = pos + 1;
        boolean escaped = skipString();
        String raw = new String(text, start, pos - 1 - start, StandardCharsets.UTF_8);
        return escaped ? unescape(raw) : raw;
    }

    /**
     * Moves past a string without making it: most strings of a 100 MB output lie inside the entries and are never
     * needed here.
     *
     * @return whether the string holds an escape
     */
    private boolean skipString() throws MalformedJsonException {
        if (peek() != '"') {
            throw error("expected a string");
        }
        int start = ++pos;
        boolean escaped = false;
        while (pos < text.length) {
            byte b = text[pos++];
            if (b == '\\') {
                escaped = true;
                pos++;
            } else if (b == '"') {
                return escaped;
            }
        }
        pos = start - 1;
        throw error("a string that starts here is never closed");
    }

    private static String unescape(String raw) {
        StringBuilder out = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '\\' || i + 1 >= raw.length()) {
                out.append(c);
                continue;
            }
            char e = raw.charAt(++i);
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (i + 4 < raw.length()) {
                        out.append((char) Integer.parseInt(raw.substring(i + 1, i + 5), 16));
                        i += 4;
                    }
                }
                default -> out.append(e);
            }
        }
        return out.toString();
    }

    private void skipWhitespace() {
        while (pos < text.length && isWhitespace(text[pos])) {
            pos++;
        }
    }

    private static boolean isWhitespace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    private byte peek() throws MalformedJsonException {
        if (pos >= text.length) {
            throw error("the output ends early");
        }
        return text[pos];
    }

    private byte next(String whatIfMissing) throws MalformedJsonException {
        if (pos >= text.length) {
            throw error(whatIfMissing);
        }
        return text[pos++];
    }

    private void expect(char c, String message) throws MalformedJsonException {
        if (pos >= text.length || text[pos] != c) {
            throw error(message);
        }
        pos++;
    }

    private MalformedJsonException error(String message) {
        int from = Math.max(0, Math.min(pos, text.length) - 30);
        int to = Math.min(text.length, pos + 30);
        String near = new String(text, from, to - from, StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        return new MalformedJsonException(message + " (at byte " + pos + ", near \"" + near + "\")");
    }
}
