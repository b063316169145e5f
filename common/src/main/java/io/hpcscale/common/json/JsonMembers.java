package io.hpcscale.common.json;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a scheduler's JSON output from a stream and hands each entry of the wanted top-level sections to a receiver,
 * one at a time, without parsing it: each entry is then parsed on its own, so one broken entry costs only itself,
 * and the whole output is never held at once. The reader only follows strings, escapes and brackets; what lies
 * between them may be invalid JSON (PBS prints bare numbers with leading zeros, for one).
 */
public final class JsonMembers {
    /**
     * The most one entry may take. PBS copies a job's environment into {@code Variable_List}, and Linux bounds an
     * environment to 2 MiB by default, so real entries stay far below this; a larger one is unreadable rather than a
     * reason to run out of memory.
     */
    public static final int MAX_ENTRY_BYTES = 4 << 20;
    private static final int FIRST_BUFFER_BYTES = 256 * 1024;
    private static final int MIN_READ_BYTES = 64 * 1024;

    /** The JSON type a section must have. */
    public enum Shape {
        OBJECT("an object"),
        ARRAY("an array");

        private final String described;

        Shape(String described) {
            this.described = described;
        }
    }

    /** Receives the entries of one section, in order. */
    public interface Entries {
        /**
         * One entry: its text is {@code text[offset, offset + length)}, valid only during this call.
         *
         * @param name the member name in an object, null in an array
         */
        void entry(String name, byte[] text, int offset, int length);

        /** An entry longer than the most one may take: its text was not kept. */
        void tooLarge(String name, long length);
    }

    /** A top-level member whose value, of the given shape, holds the entries to hand to {@code entries}. */
    public record Section(String key, Shape shape, Entries entries) {
    }

    private final InputStream in;
    private final int maxEntryBytes;
    private byte[] buffer = new byte[FIRST_BUFFER_BYTES];
    private int pos;
    private int limit;
    /** Bytes of the stream that came before {@code buffer[0]}. */
    private long dropped;
    /** Start of the text being kept in the buffer, or -1. */
    private int keptFrom = -1;
    /** The text being kept outgrew {@link #maxEntryBytes} and was let go. */
    private boolean keptTooLong;
    private boolean ended;

    private JsonMembers(InputStream in, int maxEntryBytes) {
        this.in = in;
        this.maxEntryBytes = maxEntryBytes;
    }

    /**
     * Reads one JSON object from {@code in}, to the end of the stream, handing the entries of each section's value to
     * its receiver and skipping everything else.
     *
     * @return the keys of the top-level object, in order, to tell real output from something else
     * @throws MalformedJsonException if the text is not one JSON object, its structure breaks, or a section's value
     *                                is not of its shape
     */
    public static List<String> read(InputStream in, List<Section> sections) throws IOException, MalformedJsonException {
        return read(in, sections, MAX_ENTRY_BYTES);
    }

    static List<String> read(InputStream in, List<Section> sections, int maxEntryBytes)
            throws IOException, MalformedJsonException {
        return new JsonMembers(in, maxEntryBytes).topLevel(sections);
    }

    private List<String> topLevel(List<Section> sections) throws IOException, MalformedJsonException {
        skipWhitespace();
        if (!available()) {
            throw error("the output is empty");
        }
        expect('{', "the output does not start with a JSON object");
        List<String> keys = new ArrayList<>();
        skipWhitespace();
        if (peek("the top-level object is not closed") == '}') {
            pos++;
            checkEnd();
            return keys;
        }
        while (true) {
            skipWhitespace();
            String key = readName();
            skipWhitespace();
            expect(':', "expected ':' after \"" + key + "\"");
            skipWhitespace();
            keys.add(key);
            Section section = sections.stream().filter(s -> s.key().equals(key)).findFirst().orElse(null);
            if (section == null) {
                skipValue();
            } else {
                entries(section);
            }
            skipWhitespace();
            byte next = next("the top-level object is not closed");
            if (next == '}') {
                checkEnd();
                return keys;
            }
            if (next != ',') {
                throw error("expected ',' or '}' in the top-level object");
            }
        }
    }

    private void checkEnd() throws IOException, MalformedJsonException {
        skipWhitespace();
        if (available()) {
            throw error("unexpected text after the top-level object");
        }
    }

    private void entries(Section section) throws IOException, MalformedJsonException {
        boolean object = section.shape() == Shape.OBJECT;
        byte open = peek("the output ends early");
        if (open != (object ? '{' : '[')) {
            throw error("\"" + section.key() + "\" should hold " + section.shape().described + " but holds "
                    + described(open));
        }
        pos++;
        byte close = object ? (byte) '}' : (byte) ']';
        skipWhitespace();
        if (peek("\"" + section.key() + "\" is not closed") == close) {
            pos++;
            return;
        }
        while (true) {
            skipWhitespace();
            String name = null;
            if (object) {
                name = readName();
                skipWhitespace();
                expect(':', "expected ':' after \"" + name + "\"");
                skipWhitespace();
            }
            entry(name, section.entries());
            skipWhitespace();
            byte next = next("\"" + section.key() + "\" is not closed");
            if (next == close) {
                return;
            }
            if (next != ',') {
                throw error("expected ',' or '" + (char) close + "' after an entry of \"" + section.key() + "\"");
            }
        }
    }

    private void entry(String name, Entries entries) throws IOException, MalformedJsonException {
        long start = offset();
        keep();
        skipValue();
        if (keptTooLong || pos - keptFrom > maxEntryBytes) {
            release();
            entries.tooLarge(name, offset() - start);
            return;
        }
        int from = keptFrom;
        int end = pos;
        while (end > from && isWhitespace(buffer[end - 1])) {
            end--;
        }
        release();
        entries.entry(name, buffer, from, end - from);
    }

    private static String described(byte first) {
        return switch (first) {
            case '{' -> "an object";
            case '[' -> "an array";
            case '"' -> "a string";
            case 'n' -> "null";
            default -> "a scalar";
        };
    }

    /** Skips one value of any kind; scalars end at the next structural character. */
    private void skipValue() throws IOException, MalformedJsonException {
        byte first = peek("a value is missing");
        if (first == '"') {
            pos++;
            skipStringRest();
        } else if (first == '{' || first == '[') {
            skipContainer();
        } else {
            skipScalar();
        }
    }

    private void skipScalar() throws IOException, MalformedJsonException {
        long start = offset();
        while (true) {
            byte[] b = buffer;
            int p = pos;
            int end = limit;
            while (p < end) {
                byte c = b[p];
                if (c == ',' || c == '}' || c == ']') {
                    pos = p;
                    if (offset() == start) {
                        throw error("a value is missing");
                    }
                    return;
                }
                p++;
            }
            pos = p;
            if (!fill()) {
                if (offset() == start) {
                    throw error("a value is missing");
                }
                return;
            }
        }
    }

    private void skipContainer() throws IOException, MalformedJsonException {
        long start = offset();
        int depth = 0;
        while (true) {
            byte[] b = buffer;
            int p = pos;
            int end = limit;
            while (p < end) {
                byte c = b[p++];
                if (c == '"') {
                    pos = p;
                    skipStringRest();
                    b = buffer;
                    p = pos;
                    end = limit;
                } else if (c == '{' || c == '[') {
                    depth++;
                } else if (c == '}' || c == ']') {
                    if (--depth == 0) {
                        pos = p;
                        return;
                    }
                }
            }
            pos = p;
            if (!fill()) {
                throw error("an object or array that starts at byte " + start
                        + " is never closed (is the output cut short?)");
            }
        }
    }

    /**
     * Moves past the rest of a string whose opening quote was read, without making it: most strings of a 100 MB
     * output lie inside the entries and are never needed here.
     *
     * @return whether the string holds an escape
     */
    private boolean skipStringRest() throws IOException, MalformedJsonException {
        long start = offset() - 1;
        boolean escaped = false;
        while (true) {
            byte[] b = buffer;
            int p = pos;
            int end = limit;
            while (p < end) {
                byte c = b[p++];
                if (c == '"') {
                    pos = p;
                    return escaped;
                }
                if (c == '\\') {
                    escaped = true;
                    if (p == end) {
                        pos = p;
                        if (!fill()) {
                            throw error("a string that starts at byte " + start + " is never closed");
                        }
                        b = buffer;
                        p = pos;
                        end = limit;
                    }
                    p++;
                }
            }
            pos = p;
            if (!fill()) {
                throw error("a string that starts at byte " + start + " is never closed");
            }
        }
    }

    private String readName() throws IOException, MalformedJsonException {
        if (peek("expected a string") != '"') {
            throw error("expected a string");
        }
        keep();
        pos++;
        boolean escaped = skipStringRest();
        if (keptTooLong || pos - keptFrom > maxEntryBytes) {
            release();
            throw error("a member name is longer than " + maxEntryBytes + " bytes");
        }
        String raw = new String(buffer, keptFrom + 1, pos - keptFrom - 2, StandardCharsets.UTF_8);
        release();
        return escaped ? unescape(raw) : raw;
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
                    if (i + 4 < raw.length() && isHex(raw, i + 1, i + 5)) {
                        out.append((char) Integer.parseInt(raw.substring(i + 1, i + 5), 16));
                        i += 4;
                    } else {
                        // Kept as printed, as other unknown escapes are: the name still tells entries apart.
                        out.append("\\u");
                    }
                }
                default -> out.append(e);
            }
        }
        return out.toString();
    }

    private static boolean isHex(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    /** From here on the text is kept in the buffer, up to the most an entry may take. */
    private void keep() {
        keptFrom = pos;
        keptTooLong = false;
    }

    private void release() {
        keptFrom = -1;
        keptTooLong = false;
    }

    private long offset() {
        return dropped + pos;
    }

    /**
     * Reads more of the stream once the buffer is used up, keeping the text from {@link #keptFrom} on.
     *
     * @return false at the end of the stream
     */
    private boolean fill() throws IOException {
        if (pos < limit) {
            return true;
        }
        if (ended) {
            return false;
        }
        if (keptFrom >= 0 && limit - keptFrom > maxEntryBytes) {
            keptTooLong = true;
            keptFrom = -1;
        }
        int keepFrom = keptFrom >= 0 ? keptFrom : limit;
        int kept = limit - keepFrom;
        if (kept > 0 && keepFrom > 0) {
            System.arraycopy(buffer, keepFrom, buffer, 0, kept);
        }
        dropped += keepFrom;
        pos -= keepFrom;
        limit = kept;
        if (keptFrom >= 0) {
            keptFrom = 0;
        }
        if (buffer.length - limit < MIN_READ_BYTES) {
            byte[] larger = new byte[Math.max(limit + MIN_READ_BYTES,
                    Math.min(buffer.length * 2, maxEntryBytes + MIN_READ_BYTES))];
            System.arraycopy(buffer, 0, larger, 0, limit);
            buffer = larger;
        }
        int n = in.read(buffer, limit, buffer.length - limit);
        if (n < 0) {
            ended = true;
            return false;
        }
        limit += n;
        return true;
    }

    private boolean available() throws IOException {
        return pos < limit || fill();
    }

    private void skipWhitespace() throws IOException {
        while (available() && isWhitespace(buffer[pos])) {
            pos++;
        }
    }

    private static boolean isWhitespace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    private byte peek(String whatIfMissing) throws IOException, MalformedJsonException {
        if (!available()) {
            throw error(whatIfMissing);
        }
        return buffer[pos];
    }

    private byte next(String whatIfMissing) throws IOException, MalformedJsonException {
        byte b = peek(whatIfMissing);
        pos++;
        return b;
    }

    private void expect(char c, String message) throws IOException, MalformedJsonException {
        if (!available() || buffer[pos] != c) {
            throw error(message);
        }
        pos++;
    }

    private MalformedJsonException error(String message) {
        int from = Math.max(0, Math.min(pos, limit) - 30);
        int to = Math.min(limit, pos + 30);
        String near = new String(buffer, from, Math.max(0, to - from), StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        return new MalformedJsonException(message + " (at byte " + offset() + ", near \"" + near + "\")");
    }
}
