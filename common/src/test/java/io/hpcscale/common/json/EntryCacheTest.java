package io.hpcscale.common.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntryCacheTest {
    private final EntryCache<String> cache = new EntryCache<>();
    private final List<String> parsed = new ArrayList<>();

    private String get(String name, String text) throws IOException {
        byte[] bytes = ("  " + text + "  ").getBytes(StandardCharsets.UTF_8);
        return cache.get(name, bytes, 2, bytes.length - 4, (t, o, l) -> {
            String entry = new String(t, o, l, StandardCharsets.UTF_8);
            if (entry.contains("broken")) {
                throw new IOException("broken");
            }
            parsed.add(name + "=" + entry);
            return entry.toUpperCase();
        });
    }

    private void read(Object meaning, String... entries) throws IOException {
        cache.beginRead(meaning);
        for (int i = 0; i < entries.length; i += 2) {
            get(entries[i], entries[i + 1]);
        }
        cache.endRead();
    }

    @Test
    void anEntryPrintedAsAtTheLastReadIsNotParsedAgain() throws IOException {
        read("q", "1.s", "{\"job_state\":\"Q\"}", "2.s", "{\"job_state\":\"R\"}");
        parsed.clear();
        cache.beginRead("q");
        assertEquals("{\"JOB_STATE\":\"Q\"}", get("1.s", "{\"job_state\":\"Q\"}"));
        assertEquals("{\"JOB_STATE\":\"H\"}", get("2.s", "{\"job_state\":\"H\"}"));
        cache.endRead();
        assertEquals(List.of("2.s={\"job_state\":\"H\"}"), parsed, "only the changed entry");
    }

    @Test
    void theSameTextUnderAnotherNameIsAnotherEntry() throws IOException {
        read(null, "1.s", "{}");
        read(null, "1.s", "{}", "2.s", "{}");
        assertEquals(List.of("1.s={}", "2.s={}"), parsed);
    }

    @Test
    void entriesOfAnArrayAreKnownByTheirTextAlone() throws IOException {
        read(null, null, "{\"job_id\":1}", null, "{\"job_id\":2}");
        read(null, null, "{\"job_id\":2}", null, "{\"job_id\":3}");
        assertEquals(List.of("null={\"job_id\":1}", "null={\"job_id\":2}", "null={\"job_id\":3}"), parsed);
    }

    @Test
    void anEntryMissingFromAReadIsForgotten() throws IOException {
        read(null, "1.s", "{}", "2.s", "{}");
        read(null, "1.s", "{}");
        read(null, "1.s", "{}", "2.s", "{}");
        assertEquals(List.of("1.s={}", "2.s={}", "2.s={}"), parsed);
    }

    @Test
    void aReadThatFailedDoesNotForgetTheLastCompleteOne() throws IOException {
        read(null, "1.s", "{}", "2.s", "{}");
        cache.beginRead(null);
        get("1.s", "{}");
        read(null, "1.s", "{}", "2.s", "{}");
        assertEquals(List.of("1.s={}", "2.s={}"), parsed);
    }

    @Test
    void everythingIsParsedAgainWhenWhatTheEntriesMeanChanged() throws IOException {
        read(List.of("workq"), "1.s", "{}");
        read(List.of("workq", "stopped"), "1.s", "{}");
        read(List.of("workq", "stopped"), "1.s", "{}");
        assertEquals(List.of("1.s={}", "1.s={}"), parsed);
    }

    @Test
    void anEntryThatCannotBeParsedFailsAtEveryRead() throws IOException {
        for (int i = 0; i < 2; i++) {
            cache.beginRead(null);
            assertThrows(IOException.class, () -> get("1.s", "{broken}"));
            cache.endRead();
        }
    }

    @Test
    void theHashTellsApartTextsThatDifferInOneByteAnywhere() {
        byte[] text = "{\"job_state\":\"Q\",\"queue\":\"workq\",\"Resource_List\":{\"select\":\"2:ncpus=16\"}}"
                .getBytes(StandardCharsets.UTF_8);
        long original = EntryCache.hash(text, 0, text.length);
        for (int i = 0; i < text.length; i++) {
            byte[] changed = text.clone();
            changed[i]++;
            assertNotEquals(original, EntryCache.hash(changed, 0, changed.length), "byte " + i);
        }
        assertNotEquals(original, EntryCache.hash(text, 0, text.length - 1));
    }
}
