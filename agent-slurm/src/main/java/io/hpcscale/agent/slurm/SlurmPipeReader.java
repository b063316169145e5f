package io.hpcscale.agent.slurm;

import io.hpcscale.common.agent.UnreadableEntryLog;
import java.io.BufferedReader;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads squeue's and sinfo's pipe-separated {@code -o} output, for Slurm without {@code --json}, a line at a time as
 * it is printed. With
 * {@code squeue -r} every array task has its own line; {@code sinfo -N} prints a node once per partition. These
 * formats say less than JSON: memory is per node only and memory in use is not known.
 */
final class SlurmPipeReader {
    /**
     * The squeue fields this agent asks for: id, partitions, state, nodes, CPUs, memory, GRES, reason, nodes, submit
     * time, priority, oversubscribe, licences, time limit, start time, end time, features.
     * <p>
     * Features last: a constraint may hold a '|', and the last field takes the rest of the line. Licences one of
     * which will do ({@code a|b}) came with Slurm 23.02, whose squeue has --json, which the agent prefers.
     */
    static final String SQUEUE_FORMAT = "%i|%P|%T|%D|%C|%m|%b|%r|%N|%V|%Q|%h|%W|%l|%S|%e|%f";
    /** The sinfo fields this agent asks for: node, partition, long state, CPUs, CPUs A/I/O/T, memory, GRES,
     *  reason last (it is free text). */
    static final String SINFO_FORMAT = "%N|%R|%T|%c|%C|%m|%G|%E";

    private static final java.util.regex.Pattern UNEXPANDED_ARRAY =
            java.util.regex.Pattern.compile("(\\d+)_\\[(.+)]");

    private final UnreadableEntryLog log;
    private final ZoneId zone;

    SlurmPipeReader(UnreadableEntryLog log, ZoneId zone) {
        this.log = log;
        this.zone = zone;
    }

    SlurmReadResult<SlurmJob> jobs(BufferedReader output, PipeFormat format) throws IOException {
        List<SlurmJob> jobs = new ArrayList<>();
        Set<String> unreadable = new HashSet<>();
        BoundedLines lines = new BoundedLines(output, BoundedLines.MAX_LINE_CHARS);
        for (BoundedLines.Line line = lines.next(); line != null; line = lines.next()) {
            if (line.tooLong()) {
                skipTooLong("job", line, unreadable);
                continue;
            }
            String text = line.text();
            if (text.isBlank()) {
                continue;
            }
            String id = text.contains("|") ? text.substring(0, text.indexOf('|')) : text;
            try {
                jobs.addAll(tasks(job(format.parse(text))));
            } catch (RuntimeException e) {
                unreadable.add(id);
                log.skipped("job", id, e);
            }
        }
        return new SlurmReadResult<>(jobs, unreadable);
    }

    SlurmReadResult<SlurmNode> nodes(BufferedReader output, PipeFormat format) throws IOException {
        Map<String, SlurmNode> nodes = new LinkedHashMap<>();
        Set<String> unreadable = new HashSet<>();
        BoundedLines lines = new BoundedLines(output, BoundedLines.MAX_LINE_CHARS);
        for (BoundedLines.Line line = lines.next(); line != null; line = lines.next()) {
            if (line.tooLong()) {
                skipTooLong("node", line, unreadable);
                continue;
            }
            String text = line.text();
            if (text.isBlank()) {
                continue;
            }
            String name = text.contains("|") ? text.substring(0, text.indexOf('|')) : text;
            try {
                SlurmNode node = node(format.parse(text));
                SlurmNode earlier = nodes.get(node.name());
                nodes.put(node.name(), earlier == null ? node : withPartitionsOf(earlier, node));
            } catch (RuntimeException e) {
                unreadable.add(name);
                log.skipped("node", name, e);
            }
        }
        nodes.keySet().removeAll(unreadable);
        return new SlurmReadResult<>(List.copyOf(nodes.values()), unreadable);
    }

    /** A line too long to be real is not kept, so it is known by its number. */
    private void skipTooLong(String what, BoundedLines.Line line, Set<String> unreadable) {
        String id = "on line " + line.number();
        unreadable.add(id);
        log.skipped(what, id, "the line is longer than " + BoundedLines.MAX_LINE_CHARS + " characters");
    }

    /** Without {@code -r}, pending array tasks share one line: {@code 17_[4-5%2]}. */
    private static List<SlurmJob> tasks(SlurmJob job) {
        java.util.regex.Matcher m = UNEXPANDED_ARRAY.matcher(job.id());
        if (!m.matches()) {
            return List.of(job);
        }
        List<SlurmJob> tasks = new ArrayList<>();
        for (long task : ArrayTasks.expand(m.group(2), SlurmJsonReader.MAX_ARRAY_TASKS)) {
            tasks.add(job.withId(m.group(1) + "_" + task));
        }
        return tasks;
    }

    private SlurmJob job(PipeFormat.Line line) {
        String id = required(line, "%i");
        String state = required(line, "%T");
        String memory = line.get("%m");
        long memoryMb = memory == null ? 0 : SlurmResources.megabytes(memory);
        String oversubscribe = line.get("%h");
        return new SlurmJob(id, SlurmJsonReader.partitions(line.get("%P")), state, line.get("%r"),
                line.has("%Q") ? Long.parseLong(required(line, "%Q")) : 1, line.integer("%D", 1),
                line.integer("%C", 1), 0, memoryMb > 0 ? memoryMb : null, null, line.get("%b"), null,
                "NO".equalsIgnoreCase(oversubscribe), time(line.get("%V")), line.get("%N"), line.get("%f"),
                line.get("%W"), null, SlurmTimeLimit.fromText(line.get("%l")), time(line.get("%S")),
                time(line.get("%e")));
    }

    private static SlurmNode node(PipeFormat.Line line) {
        String name = required(line, "%N");
        String longState = required(line, "%T").toLowerCase(Locale.ROOT);
        Set<String> flags = new LinkedHashSet<>();
        String state = longState;
        while (!state.isEmpty() && "*~#%!$@^-+".indexOf(state.charAt(state.length() - 1)) >= 0) {
            char suffix = state.charAt(state.length() - 1);
            switch (suffix) {
                case '*' -> flags.add("NOT_RESPONDING");
                case '~' -> flags.add("POWERED_DOWN");
                case '#' -> flags.add("POWERING_UP");
                case '%' -> flags.add("POWERING_DOWN");
                case '!' -> flags.add("POWER_DOWN");
                default -> {
                    // $ maintenance, @ reboot pending, ^ reboot issued, - planned, + more states: no effect here.
                }
            }
            state = state.substring(0, state.length() - 1);
        }
        if (state.equals("drained") || state.equals("draining") || state.equals("drain")) {
            flags.add("DRAIN");
        }
        String partition = line.has("%R") ? line.get("%R") : line.get("%P");
        List<String> partitions = partition == null ? List.of() : List.of(partition.replace("*", ""));
        int cpus = line.integer("%c", 0);
        int allocCpus = -1;
        String cpuCounts = line.get("%C");
        if (cpuCounts != null) {
            String[] counts = cpuCounts.split("/");
            if (counts.length != 4) {
                throw new IllegalArgumentException("%C is '" + cpuCounts + "', not allocated/idle/other/total");
            }
            allocCpus = Integer.parseInt(counts[0]);
        }
        String memory = line.get("%m");
        return new SlurmNode(name, partitions, state, flags, cpus, allocCpus,
                memory == null ? 0 : SlurmResources.megabytes(memory), 0, line.get("%G"), null, line.get("%E"),
                null);
    }

    private static SlurmNode withPartitionsOf(SlurmNode node, SlurmNode other) {
        List<String> partitions = new ArrayList<>(node.partitions());
        other.partitions().stream().filter(p -> !partitions.contains(p)).forEach(partitions::add);
        return new SlurmNode(node.name(), partitions, node.state(), node.flags(), node.cpus(), node.allocCpus(),
                node.memoryMb(), node.allocMemoryMb(), node.gres(), node.gresUsed(), node.reason(), node.lastBusy());
    }

    private Instant time(String text) {
        if (text == null) {
            return null;
        }
        try {
            return LocalDateTime.parse(text).atZone(zone).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static String required(PipeFormat.Line line, String code) {
        String value = line.get(code);
        if (value == null) {
            throw new IllegalArgumentException("it has no " + code + " field");
        }
        return value;
    }
}
