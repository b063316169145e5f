package io.hpcscale.common.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hpcscale.common.fuzz.ByteMutations;
import io.hpcscale.common.fuzz.FuzzTally;
import io.hpcscale.common.fuzz.FuzzTally.Outcome;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;

/**
 * The section splitter under every PBS and Slurm JSON reader, on damaged output: it hands over entries or throws
 * MalformedJsonException, and what it hands over does not depend on how the stream is cut into reads, even with an
 * entry bound small enough that entries outgrow the buffer between two reads.
 */
class JsonMembersFuzzTest {
    private static final FuzzTally SPLITTER = new FuzzTally("JSON section splitter (JsonMembers)");
    private static final int MAX_ENTRY_BYTES = 96;
    private static final String FIXTURE = """
            {"pbs_version":"2022.1.7","timestamp":1700000000,
             "Jobs":{"1.s":{"job_state":"Q","Variable_List":{"PATH":"C:\\\\bin","Q":"say \\"}\\" {","N":007}},
                     "2\\"s":{"Resource_List":{"ncpus":1,"select":"1:ncpus=2"}},"3.s\\u0041":[1,[2,[3]]],
                     "4.s":{"x":"%s"}},
             "meta":{"plugin":{"type":"openapi/v0.0.38"}},"errors":[],
             "jobs":[{"job_id":1,"name":"a]b}c"},{"job_id":2},null,7,"s"]}
            """.formatted("y".repeat(200));

    @AfterContainer
    static void printTally() {
        SPLITTER.print();
    }

    /** What one read handed over, as text, to compare two reads of the same output. */
    private static final class Collected implements JsonMembers.Entries {
        final List<String> handed = new ArrayList<>();
        boolean tooLarge;

        @Override
        public void entry(String name, byte[] text, int offset, int length) {
            handed.add(name + "=" + new String(text, offset, length, StandardCharsets.ISO_8859_1));
        }

        @Override
        public void tooLarge(String name, long length) {
            tooLarge = true;
            handed.add(name + ": " + length + " bytes");
        }
    }

    private static String read(InputStream in, Collected collected) throws IOException {
        try {
            List<String> keys = JsonMembers.read(in, List.of(
                    new JsonMembers.Section("Jobs", JsonMembers.Shape.OBJECT, collected),
                    new JsonMembers.Section("jobs", JsonMembers.Shape.ARRAY, collected)), MAX_ENTRY_BYTES);
            return keys + " " + collected.handed;
        } catch (MalformedJsonException e) {
            return "malformed";
        }
    }

    private static InputStream trickling(byte[] text, int piece) {
        return new ByteArrayInputStream(text) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, piece));
            }
        };
    }

    @Property
    void handsOverTheSameEntriesHoweverTheOutputIsCut(@ForAll("damagedOutput") byte[] output,
            @ForAll @IntRange(min = 1, max = 64) int piece) throws Exception {
        SPLITTER.count(() -> {
            Collected whole = new Collected();
            String wholeRead = read(new ByteArrayInputStream(output), whole);
            assertEquals(wholeRead, read(trickling(output, piece), new Collected()));
            return wholeRead.equals("malformed") ? Outcome.REFUSED : whole.tooLarge ? Outcome.SKIPPED : Outcome.READ;
        });
    }

    @Provide
    Arbitrary<byte[]> damagedOutput() {
        return ByteMutations.of(List.of(FIXTURE.getBytes(StandardCharsets.UTF_8)));
    }
}
