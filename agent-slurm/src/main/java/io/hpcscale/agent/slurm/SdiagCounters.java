package io.hpcscale.agent.slurm;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The job counters of {@code sdiag}: jobs submitted, started, completed, canceled and failed since the statistics
 * were last reset (at midnight, or by {@code sdiag --reset}), and the jobs pending and running when slurmctld last
 * counted them. slurmctld answers from memory, so this is cheap however many jobs there are; a job queued, started,
 * ended or requeued changes at least one of them.
 */
final class SdiagCounters {
    private static final List<String> COUNTED = List.of("submitted", "started", "completed", "canceled", "failed");
    private static final List<String> SAMPLED = List.of("pending", "running");
    private static final Pattern COUNTER = Pattern.compile("^Jobs (\\w+):\\s*(\\d+)\\s*$");

    private SdiagCounters() {
    }

    /**
     * The counters, as {@code submitted=14 started=10 ...}.
     *
     * @throws IllegalArgumentException the output lacks one of the counters every Slurm since 2.4 prints
     */
    static String read(BufferedReader output) throws IOException {
        Map<String, String> found = new LinkedHashMap<>();
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            Matcher counter = COUNTER.matcher(line.strip());
            if (counter.matches() && !found.containsKey(counter.group(1))) {
                found.put(counter.group(1), counter.group(2));
            }
        }
        StringBuilder signature = new StringBuilder();
        for (String name : COUNTED) {
            if (!found.containsKey(name)) {
                throw new IllegalArgumentException("it has no \"Jobs " + name + ":\" line");
            }
            signature.append(signature.length() == 0 ? "" : " ").append(name).append('=').append(found.get(name));
        }
        for (String name : SAMPLED) {
            if (found.containsKey(name)) {
                signature.append(' ').append(name).append('=').append(found.get(name));
            }
        }
        return signature.toString();
    }
}
