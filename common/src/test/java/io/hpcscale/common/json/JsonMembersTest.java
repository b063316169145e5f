package io.hpcscale.common.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonMembersTest {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String value(byte[] text, JsonMembers.Entry entry) {
        return new String(text, entry.start(), entry.length(), StandardCharsets.UTF_8);
    }

    @Test
    void findsEachMemberOfTheNamedObject() throws Exception {
        byte[] text = bytes("{\"v\":\"1\", \"Jobs\": {\"a.s\": {\"x\": [1, {\"y\": \"}\"}]},\n \"b\\\"q\": 007 } }");
        JsonMembers.Section section = JsonMembers.section(text, "Jobs");
        assertTrue(section.present());
        assertEquals(List.of("v", "Jobs"), section.topLevelKeys());
        assertEquals(2, section.entries().size());
        assertEquals("a.s", section.entries().get(0).name());
        assertEquals("{\"x\": [1, {\"y\": \"}\"}]}", value(text, section.entries().get(0)));
        assertEquals("b\"q", section.entries().get(1).name());
        assertEquals("007", value(text, section.entries().get(1)));
    }

    @Test
    void skipsEscapedQuotesAndBackslashesInsideEntries() throws Exception {
        byte[] text = bytes("{\"Jobs\": {\"a\": {\"PBS_O_PATH\": \"C:\\\\\", \"m\": \"say \\\"}\\\" {\"}, "
                + "\"b\": {}}, \"x\\\\\": 1}");
        JsonMembers.Section section = JsonMembers.section(text, "Jobs");
        assertEquals(List.of("Jobs", "x\\"), section.topLevelKeys());
        assertEquals(List.of("a", "b"), section.entries().stream().map(JsonMembers.Entry::name).toList());
        assertEquals("{}", value(text, section.entries().get(1)));
    }

    @Test
    void findsArrayElements() throws Exception {
        byte[] text = bytes("{\"jobs\": [ {\"a\":1}, {\"b\":[2]} ], \"meta\": {}}");
        JsonMembers.Section section = JsonMembers.section(text, "jobs");
        assertEquals(2, section.entries().size());
        assertEquals("{\"b\":[2]}", value(text, section.entries().get(1)));
    }

    @Test
    void reportsAnAbsentKey() throws Exception {
        JsonMembers.Section section = JsonMembers.section(bytes("{\"pbs_server\": \"s\"}"), "Jobs");
        assertFalse(section.present());
        assertTrue(section.entries().isEmpty());
    }

    @Test
    void failsOnOutputThatIsNotOneObject() {
        for (String text : List.of("", "   ", "qstat: cannot connect to server", "{\"Jobs\": {\"a\": {\"x\": 1}",
                "{\"Jobs\": {}} trailing", "[1,2]", "{\"Jobs\": {\"a\": \"unterminated}}")) {
            assertThrows(MalformedJsonException.class, () -> JsonMembers.section(bytes(text), "Jobs"), text);
        }
    }
}
