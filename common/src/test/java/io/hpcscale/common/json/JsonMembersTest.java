package io.hpcscale.common.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonMembersTest {

    /** What a receiver was handed: "name=text" per entry, "name: N bytes, too large" for one that was not kept. */
    private static final class Collected implements JsonMembers.Entries {
        final List<String> entries = new ArrayList<>();

        @Override
        public void entry(String name, byte[] text, int offset, int length) {
            entries.add(name + "=" + new String(text, offset, length, StandardCharsets.UTF_8));
        }

        @Override
        public void tooLarge(String name, long length) {
            entries.add(name + ": " + length + " bytes, too large");
        }
    }

    /** A stream that hands out at most {@code piece} bytes per read, as a pipe may. */
    private static InputStream trickling(String text, int piece) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, piece));
            }
        };
    }

    private static List<String> entries(String text, String key, JsonMembers.Shape shape) throws Exception {
        Collected collected = new Collected();
        JsonMembers.read(trickling(text, Integer.MAX_VALUE), List.of(new JsonMembers.Section(key, shape, collected)));
        return collected.entries;
    }

    @Test
    void handsOverEachMemberOfTheNamedObject() throws Exception {
        String text = "{\"v\":\"1\", \"Jobs\": {\"a.s\": {\"x\": [1, {\"y\": \"}\"}]},\n \"b\\\"q\": 007 } }";
        Collected collected = new Collected();
        List<String> keys = JsonMembers.read(trickling(text, Integer.MAX_VALUE),
                List.of(new JsonMembers.Section("Jobs", JsonMembers.Shape.OBJECT, collected)));
        assertEquals(List.of("v", "Jobs"), keys);
        assertEquals(List.of("a.s={\"x\": [1, {\"y\": \"}\"}]}", "b\"q=007"), collected.entries);
    }

    @Test
    void skipsEscapedQuotesAndBackslashesInsideEntries() throws Exception {
        String text = "{\"Jobs\": {\"a\": {\"PBS_O_PATH\": \"C:\\\\\", \"m\": \"say \\\"}\\\" {\"}, "
                + "\"b\": {}}, \"x\\\\\": 1}";
        assertEquals(List.of("a={\"PBS_O_PATH\": \"C:\\\\\", \"m\": \"say \\\"}\\\" {\"}", "b={}"),
                entries(text, "Jobs", JsonMembers.Shape.OBJECT));
    }

    @Test
    void aNameWithAnInvalidUnicodeEscapeIsKeptAsPrintedAndItsEntryHandedOver() throws Exception {
        String text = "{\"Jobs\": {\"a\\uZZZZ\": 1, \"b\\u00\": 2, \"c\\u0041\": 3}}";
        assertEquals(List.of("a\\uZZZZ=1", "b\\u00=2", "cA=3"), entries(text, "Jobs", JsonMembers.Shape.OBJECT));
    }

    @Test
    void handsOverArrayElementsWithoutNames() throws Exception {
        assertEquals(List.of("null={\"a\":1}", "null={\"b\":[2]}"),
                entries("{\"jobs\": [ {\"a\":1}, {\"b\":[2]} ], \"meta\": {}}", "jobs", JsonMembers.Shape.ARRAY));
    }

    @Test
    void handsOverTheEntriesOfSeveralSections() throws Exception {
        Collected meta = new Collected();
        Collected jobs = new Collected();
        JsonMembers.read(trickling("{\"meta\": {\"plugin\": {\"type\": \"v\"}}, \"errors\": [], \"jobs\": [1, 2]}", 5),
                List.of(new JsonMembers.Section("meta", JsonMembers.Shape.OBJECT, meta),
                        new JsonMembers.Section("jobs", JsonMembers.Shape.ARRAY, jobs)));
        assertEquals(List.of("plugin={\"type\": \"v\"}"), meta.entries);
        assertEquals(List.of("null=1", "null=2"), jobs.entries);
    }

    @Test
    void anAbsentSectionHandsOverNothingAndIsMissingFromTheKeys() throws Exception {
        Collected collected = new Collected();
        List<String> keys = JsonMembers.read(trickling("{\"pbs_server\": \"s\"}", 3),
                List.of(new JsonMembers.Section("Jobs", JsonMembers.Shape.OBJECT, collected)));
        assertEquals(List.of("pbs_server"), keys);
        assertTrue(collected.entries.isEmpty());
    }

    @Test
    void readsTheSameEntriesHoweverTheStreamIsCutIntoPieces() throws Exception {
        StringBuilder text = new StringBuilder("{\"pbs_server\": \"s\", \"Jobs\": {");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String value = "{\"path\": \"C:\\\\dir" + "\\\\".repeat(i % 5) + "\", \"say\": \"\\\"" + i + "}\", "
                    + "\"n\": 0" + i + ", \"list\": [" + "[]".repeat(i % 7) + "]}";
            String name = "job\\\"" + i;
            text.append(i == 0 ? "" : ",\n").append('"').append(name).append("\": ").append(value);
            expected.add("job\"" + i + "=" + value);
        }
        text.append("}}");
        for (int piece : List.of(1, 2, 3, 7, 64, 100_000)) {
            Collected collected = new Collected();
            JsonMembers.read(trickling(text.toString(), piece),
                    List.of(new JsonMembers.Section("Jobs", JsonMembers.Shape.OBJECT, collected)));
            assertEquals(expected, collected.entries, "read " + piece + " bytes at a time");
        }
    }

    @Test
    void anEntryLongerThanTheBoundIsTooLargeAndTheOthersAreStillRead() throws Exception {
        String huge = "{\"Variable_List\": \"" + "x".repeat(5000) + "\"}";
        String text = "{\"Jobs\": {\"1.s\": {\"a\": 1}, \"2.s\": " + huge + ", \"3.s\": {\"b\": 2}}}";
        for (int piece : List.of(1, 13, 1 << 20)) {
            Collected collected = new Collected();
            JsonMembers.read(trickling(text, piece),
                    List.of(new JsonMembers.Section("Jobs", JsonMembers.Shape.OBJECT, collected)), 1000);
            assertEquals(List.of("1.s={\"a\": 1}", "2.s: " + huge.length() + " bytes, too large", "3.s={\"b\": 2}"),
                    collected.entries, "read " + piece + " bytes at a time");
        }
    }

    @Test
    void aMemberNameLongerThanTheBoundIsUnreadableHoweverTheStreamIsCut() {
        String text = "{\"Jobs\": {\"" + "n".repeat(1001) + "\": {\"a\": 1}}}";
        for (int piece : List.of(1, 13, 1 << 20)) {
            MalformedJsonException e = assertThrows(MalformedJsonException.class, () -> JsonMembers.read(
                    trickling(text, piece), List.of(new JsonMembers.Section("Jobs", JsonMembers.Shape.OBJECT,
                            new Collected())), 1000), "read " + piece + " bytes at a time");
            assertTrue(e.getMessage().contains("a member name is longer than 1000 bytes"), e.getMessage());
        }
    }

    @Test
    void aSectionOfTheWrongTypeIsUnreadable() {
        for (String value : List.of("[]", "null", "\"none\"", "0")) {
            MalformedJsonException e = assertThrows(MalformedJsonException.class,
                    () -> entries("{\"pbs_server\": \"s\", \"Jobs\": " + value + "}", "Jobs",
                            JsonMembers.Shape.OBJECT));
            assertTrue(e.getMessage().startsWith("\"Jobs\" should hold an object but holds "), e.getMessage());
        }
        MalformedJsonException e = assertThrows(MalformedJsonException.class,
                () -> entries("{\"jobs\": {}}", "jobs", JsonMembers.Shape.ARRAY));
        assertTrue(e.getMessage().startsWith("\"jobs\" should hold an array but holds an object"), e.getMessage());
    }

    @Test
    void failsOnOutputThatIsNotOneObject() {
        for (String text : List.of("", "   ", "qstat: cannot connect to server", "{\"Jobs\": {\"a\": {\"x\": 1}",
                "{\"Jobs\": {}} trailing", "[1,2]", "{\"Jobs\": {\"a\": \"unterminated}}", "{\"Jobs\": {\"a\": }}",
                "{\"Jobs\": {\"a\": 1,}}", "{\"Jobs\": {\"a\": \"cut after a backslash \\")) {
            for (int piece : List.of(1, 1 << 20)) {
                assertThrows(MalformedJsonException.class, () -> JsonMembers.read(trickling(text, piece),
                        List.of(new JsonMembers.Section("Jobs", JsonMembers.Shape.OBJECT, new Collected()))), text);
            }
        }
    }

    @Test
    void saysWhereTheOutputBroke() {
        MalformedJsonException e = assertThrows(MalformedJsonException.class,
                () -> entries("{\"Jobs\": {\"a\": {\"x\": 1", "Jobs", JsonMembers.Shape.OBJECT));
        assertTrue(e.getMessage().contains("starts at byte 15 is never closed (is the output cut short?)"),
                e.getMessage());
    }
}
