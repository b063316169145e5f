package io.hpcscale.simulator.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the Parallel Workloads Archive's logs as they are published. */
class SwfTraceTest {
    @TempDir
    Path dir;

    private static final List<String> JOBS = List.of("2 60 0 100 8 -1 -1 8 200", "1 0 0 50 16 -1 -1 16 100");

    @Test
    void readsACompressedLogWhateverItsName() throws IOException {
        Path file = dir.resolve("CTC-SP2-1996-3.1-cln.swf.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(String.join("\n", List.of("; MaxNodes: 338 (batch partition; 512 total)", "; MaxProcs: 338",
                    JOBS.get(0), JOBS.get(1))).getBytes(StandardCharsets.UTF_8));
        }
        SwfTrace trace = SwfTrace.read(file);
        assertEquals(338, trace.maxNodes(), "the value, without the note that follows it");
        assertEquals(2, trace.jobs().size());
    }

    @Test
    void readsHeadersWithOrWithoutABlankAfterTheSemicolonAndSortsJobsBySubmitTime() throws IOException {
        Path file = dir.resolve("log.swf");
        Files.write(file, List.of(";MaxNodes: 1524", ";   MaxProcs:12192", "; Note: hybrid nodes are not counted",
                "; MaxNodes: 400 (48 interactive, 352 batch)", JOBS.get(0), JOBS.get(1)));
        SwfTrace trace = SwfTrace.read(file);
        assertEquals(1524, trace.maxNodes(), "the first MaxNodes");
        assertEquals(12192, trace.maxProcs());
        assertEquals(8, trace.processorsPerNode());
        assertEquals(List.of(1L, 2L), trace.jobs().stream().map(SwfTrace.TraceJob::id).toList());
    }

    @Test
    void processorsPerNodeRoundsUpSoThatTheWidestJobStillFitsAndIsOneWithoutBothHeaders() throws IOException {
        Path curie = dir.resolve("curie.swf");
        Files.write(curie, List.of("; MaxNodes: 5544", "; MaxProcs: 93312", JOBS.get(0)));
        assertEquals(17, SwfTrace.read(curie).processorsPerNode(), "93,312 processors on 5,544 nodes");

        Path model = dir.resolve("lublin.swf");
        Files.write(model, List.of("; MaxNodes: 256", JOBS.get(0)));
        SwfTrace lublin = SwfTrace.read(model);
        assertNull(lublin.maxProcs());
        assertEquals(1, lublin.processorsPerNode());
    }

    @Test
    void readsWhenAndInWhichZoneTheMachinesClockStartedAndLeavesAnUnknownZoneOut() throws IOException {
        Path kth = dir.resolve("kth.swf");
        Files.write(kth, List.of("; UnixStartTime: 843480031", "; TimeZone: 3600",
                "; TimeZoneString: Europe/Stockholm", JOBS.get(0)));
        SwfTrace trace = SwfTrace.read(kth);
        assertEquals(Instant.parse("1996-09-23T12:00:31Z"), trace.startTime());
        assertEquals(ZoneId.of("Europe/Stockholm"), trace.zone());

        Path odd = dir.resolve("odd.swf");
        Files.write(odd, List.of(";TimeZoneString: Mars/Olympus", JOBS.get(0)));
        assertNull(SwfTrace.read(odd).zone());
        assertNull(SwfTrace.read(odd).startTime());
    }
}
