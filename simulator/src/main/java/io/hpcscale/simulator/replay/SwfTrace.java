package io.hpcscale.simulator.replay;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * A workload in the Standard Workload Format of the Parallel Workloads Archive: header lines start with {@code ;},
 * then one job per line, fields separated by blanks: 1 job id, 2 submit time (s), 3 wait (s), 4 run time (s),
 * 5 allocated processors, ..., 8 requested processors, 9 requested time (s), ...; -1 means unknown. Read as the
 * archive writes its logs: gzip-compressed or not, headers with or without a blank after the {@code ;} and values
 * followed by notes ({@code ; MaxNodes: 338 (batch partition; 512 total)}), and jobs in any order (sorted by
 * submit time here).
 *
 * @param maxNodes the header's {@code MaxNodes}, or null
 * @param maxProcs the header's {@code MaxProcs}, or null
 * @param startTime the header's {@code UnixStartTime}, the instant submit time 0 stands for, or null
 * @param zone      the header's {@code TimeZoneString}, the machine's wall clock, or null
 */
public record SwfTrace(List<TraceJob> jobs, Integer maxNodes, Integer maxProcs, int skippedUnknownRuntime,
        Instant startTime, ZoneId zone) {

    /** One job: submitted at {@code submit} seconds, running {@code runtime} seconds on {@code processors}. */
    public record TraceJob(long id, long submit, long runtime, int processors, long requestedTime) {
    }

    /** A header line: {@code ;}, a name, a colon, and a value that may be followed by notes. */
    private static final Pattern HEADER = Pattern.compile(";\\s*(\\w+)\\s*:\\s*(\\d+)\\b.*");
    /** The machine's time zone as the archive names it: {@code ; TimeZoneString: Europe/Stockholm}. */
    private static final Pattern ZONE = Pattern.compile(";\\s*TimeZoneString\\s*:\\s*(\\S+).*",
            Pattern.CASE_INSENSITIVE);

    public SwfTrace {
        jobs = List.copyOf(jobs);
    }

    /**
     * Processors per node as the header says, {@code MaxProcs} over {@code MaxNodes} rounded up (so that the
     * largest job still fits the machine), or 1 when the header does not say both.
     */
    public int processorsPerNode() {
        if (maxNodes == null || maxProcs == null || maxNodes <= 0 || maxProcs <= maxNodes) {
            return 1;
        }
        return (maxProcs + maxNodes - 1) / maxNodes;
    }

    /** @throws IOException naming the line that cannot be read */
    public static SwfTrace read(Path file) throws IOException {
        List<TraceJob> jobs = new ArrayList<>();
        Map<String, Integer> headers = new HashMap<>();
        ZoneId zone = null;
        int skipped = 0;
        int number = 0;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(open(file), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                number++;
                String text = line.strip();
                if (text.isEmpty()) {
                    continue;
                }
                if (text.startsWith(";")) {
                    Matcher header = HEADER.matcher(text);
                    if (header.matches()) {
                        headers.putIfAbsent(header.group(1).toLowerCase(Locale.ROOT), parse(header.group(2)));
                    }
                    Matcher zoneHeader = ZONE.matcher(text);
                    if (zone == null && zoneHeader.matches()) {
                        zone = zone(zoneHeader.group(1));
                    }
                    continue;
                }
                String[] fields = text.split("\\s+");
                if (fields.length < 9) {
                    throw new IOException(file + " line " + number + ": expected at least 9 fields (SWF), found "
                            + fields.length + "; correct the line, or start it with ';' to leave it out");
                }
                try {
                    long runtime = Long.parseLong(fields[3]);
                    int requested = Integer.parseInt(fields[7]);
                    int allocated = Integer.parseInt(fields[4]);
                    int processors = requested > 0 ? requested : allocated;
                    if (runtime < 0 || processors <= 0) {
                        skipped++;
                        continue;
                    }
                    long requestedTime = Long.parseLong(fields[8]);
                    jobs.add(new TraceJob(Long.parseLong(fields[0]), Long.parseLong(fields[1]), runtime, processors,
                            requestedTime > 0 ? requestedTime : runtime));
                } catch (NumberFormatException e) {
                    throw new IOException(file + " line " + number + ": a field is not a whole number ("
                            + e.getMessage() + "); correct the line, or start it with ';' to leave it out");
                }
            }
        }
        jobs.sort((a, b) -> a.submit() != b.submit() ? Long.compare(a.submit(), b.submit()) : Long.compare(a.id(),
                b.id()));
        Integer start = headers.get("unixstarttime");
        return new SwfTrace(jobs, headers.get("maxnodes"), headers.get("maxprocs"), skipped,
                start == null ? null : Instant.ofEpochSecond(start), zone);
    }

    /** The file's bytes, unzipped when they are gzip's (the archive's {@code .swf.gz}), whatever the name says. */
    private static InputStream open(Path file) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(file));
        in.mark(2);
        int first = in.read();
        int second = in.read();
        in.reset();
        return first == 0x1f && second == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
    }

    /** A zone Java does not know is one the replay cannot read the machine's clock in: the replay uses UTC. */
    private static ZoneId zone(String name) {
        try {
            return ZoneId.of(name);
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** A header value too large for an int is no count this reader can use. */
    private static Integer parse(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
