package io.hpcscale.simulator.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.fuzz.ByteMutations;
import io.hpcscale.common.fuzz.FuzzTally;
import io.hpcscale.common.fuzz.FuzzTally.Outcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * Workload traces in the Standard Workload Format, damaged at random: a trace is read, or refused with an
 * IOException naming its line (a trace is a file someone corrects, not output to make the best of); never a crash.
 */
class SwfTraceFuzzTest {
    private static final FuzzTally TRACES = new FuzzTally("SWF traces");
    /** The header and first 200 jobs of the Lublin trace: every kind of line, small enough for 100,000 tries. */
    private static final int FIXTURE_LINES = 200;

    private Path trace;

    @BeforeProperty
    void createTraceFile() throws IOException {
        trace = Files.createTempFile("fuzz", ".swf");
    }

    @AfterProperty
    void deleteTraceFile() throws IOException {
        Files.deleteIfExists(trace);
    }

    @AfterContainer
    static void printTally() {
        TRACES.print();
    }

    private Outcome read(byte[] text) throws IOException {
        Files.write(trace, text);
        try {
            SwfTrace read = SwfTrace.read(trace);
            return read.skippedUnknownRuntime() == 0 ? Outcome.READ : Outcome.SKIPPED;
        } catch (IOException e) {
            return Outcome.REFUSED;
        }
    }

    @Property
    void damagedTracesAreReadOrRefused(@ForAll("damagedTraces") byte[] text) throws Exception {
        TRACES.count(() -> read(text));
    }

    @Example
    void aLineOfInvalidUtf8OrNumbersNoTypeHoldsIsRefusedNamingTheLine() throws IOException {
        for (String bad : List.of("1 100 -1 3600 16 -1 -1 16 99999999999999999999", "1 100 -1 1e309 16 -1 -1 16 1")) {
            Files.writeString(trace, "; MaxNodes: 64\n" + bad + "\n");
            IOException e = assertThrows(IOException.class, () -> SwfTrace.read(trace));
            assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        }
        Files.write(trace, new byte[] {'1', ' ', (byte) 0xC3, 0x28, '\n'});
        assertThrows(IOException.class, () -> SwfTrace.read(trace));
        Files.writeString(trace, "1 100 -1 3600 16 -1 -1 16 3600\n");
        assertEquals(1, SwfTrace.read(trace).jobs().size());
    }

    @Provide
    Arbitrary<byte[]> damagedTraces() {
        try (var lines = Files.lines(SimulationTest.LUBLIN, StandardCharsets.UTF_8)) {
            String fixture = String.join("\n", lines.limit(FIXTURE_LINES).toList()) + "\n";
            return ByteMutations.of(List.of(fixture.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
