package io.hpcscale.simulator.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A workload in the Standard Workload Format of the Parallel Workloads Archive: header lines start with {@code ;},
 * then one job per line, fields separated by blanks: 1 job id, 2 submit time (s), 3 wait (s), 4 run time (s),
 * 5 allocated processors, ..., 8 requested processors, 9 requested time (s), ...; -1 means unknown.
 */
public record SwfTrace(List<TraceJob> jobs, Integer maxNodes, int skippedUnknownRuntime) {

    /** One job: submitted at {@code submit} seconds, running {@code runtime} seconds on {@code processors}. */
    public record TraceJob(long id, long submit, long runtime, int processors, long requestedTime) {
    }

    public SwfTrace {
        jobs = List.copyOf(jobs);
    }

    /** @throws IOException naming the line that cannot be read */
    public static SwfTrace read(Path file) throws IOException {
        List<TraceJob> jobs = new ArrayList<>();
        Integer maxNodes = null;
        int skipped = 0;
        int number = 0;
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            while ((line = reader.readLine()) != null) {
                number++;
                String text = line.strip();
                if (text.isEmpty()) {
                    continue;
                }
                if (text.startsWith(";")) {
                    maxNodes = header(text, maxNodes);
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
        return new SwfTrace(jobs, maxNodes, skipped);
    }

    private static Integer header(String text, Integer current) {
        String lower = text.toLowerCase(Locale.ROOT);
        int colon = text.indexOf(':');
        if (lower.startsWith("; maxnodes:") && colon > 0) {
            try {
                return Integer.parseInt(text.substring(colon + 1).strip());
            } catch (NumberFormatException e) {
                return current;
            }
        }
        return current;
    }
}
