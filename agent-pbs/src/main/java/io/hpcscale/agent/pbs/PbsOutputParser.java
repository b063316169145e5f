package io.hpcscale.agent.pbs;

import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.UnreadableEntryLog;
import io.hpcscale.common.json.EntryCache;
import io.hpcscale.common.json.JsonMembers;
import io.hpcscale.common.json.MalformedJsonException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the outputs of {@code qstat -f -t -F json}, {@code pbsnodes -a -F json} and {@code qstat -Q -f -F json} as
 * they are printed. Each job, node and queue is parsed on its own: one that cannot be read is skipped and named in
 * one log line (repeated only if it goes away and comes back), and every other one is kept. Output that is not a PBS
 * JSON document at all, or whose jobs, nodes or queues are not a JSON object, fails the read. A job or node printed
 * exactly as at the last read is not parsed again.
 */
final class PbsOutputParser {
    private static final Set<String> HEADER_KEYS = Set.of("pbs_version", "pbs_server", "timestamp");

    private final PbsJobParser jobParser;
    private final PbsNodeParser nodeParser = new PbsNodeParser();
    private final PbsQueueParser queueParser = new PbsQueueParser();
    private final UnreadableEntryLog skipped = new UnreadableEntryLog();
    private final EntryCache<Optional<SchedulerJob>> parsedJobs = new EntryCache<>();
    private final EntryCache<PbsNodeParser.PbsNode> parsedNodes = new EntryCache<>();

    PbsOutputParser(ZoneId serverZone) {
        this.jobParser = new PbsJobParser(serverZone);
    }

    /**
     * @param unreadableHolding the hosts of each unreadable job whose {@code exec_host} could be read: still held
     */
    record Jobs(List<SchedulerJob> jobs, Set<String> unreadable, Map<String, List<String>> unreadableHolding) {
    }

    record Nodes(List<SchedulerNode> nodes, Set<String> unreadable, QueueSharing sharing) {
        static Nodes none() {
            return new Nodes(List.of(), Set.of(), QueueSharing.none());
        }
    }

    Jobs jobs(InputStream output, String command, PbsQueues queues) throws IOException, SchedulerReadException {
        List<SchedulerJob> jobs = new ArrayList<>();
        Set<String> unreadable = new HashSet<>();
        Map<String, List<String>> holding = new HashMap<>();
        parsedJobs.beginRead(queues);
        read(output, "Jobs", command, new Entries("job", unreadable) {
            @Override
            void parse(String id, byte[] text, int offset, int length) throws IOException {
                try {
                    parsedJobs.get(id, text, offset, length, (t, o, l) -> jobParser.parse(id, t, o, l, queues))
                            .ifPresent(jobs::add);
                } catch (UnreadableJobException e) {
                    holding.put(id, e.hosts());
                    throw e;
                }
            }
        });
        parsedJobs.endRead();
        skipped.endRead();
        return new Jobs(jobs, unreadable, holding);
    }

    /** The nodes, or empty when pbsnodes printed nothing at all, as it does for a server without nodes. */
    Optional<Nodes> nodes(InputStream output, String command) throws IOException, SchedulerReadException {
        PushbackInputStream first = new PushbackInputStream(output);
        int b = first.read();
        if (b < 0) {
            return Optional.empty();
        }
        first.unread(b);
        List<SchedulerNode> nodes = new ArrayList<>();
        List<QueueSharing.NodeSharing> sharing = new ArrayList<>();
        Set<String> unreadable = new HashSet<>();
        parsedNodes.beginRead(null);
        read(first, "nodes", command, new Entries("node", unreadable) {
            @Override
            void parse(String name, byte[] text, int offset, int length) throws IOException {
                PbsNodeParser.PbsNode node = parsedNodes.get(name, text, offset, length,
                        (t, o, l) -> nodeParser.parse(name, t, o, l));
                nodes.add(node.node());
                sharing.add(new QueueSharing.NodeSharing(node.node().queues(), node.sharing()));
            }
        });
        parsedNodes.endRead();
        return Optional.of(new Nodes(nodes, unreadable, QueueSharing.of(sharing)));
    }

    /** Every queue of {@code qstat -Q -f -F json} that can be read. */
    List<PbsQueue> queues(InputStream output, String command) throws IOException, SchedulerReadException {
        List<PbsQueue> queues = new ArrayList<>();
        read(output, "Queue", command, new Entries("queue", new HashSet<>()) {
            @Override
            void parse(String name, byte[] text, int offset, int length) throws IOException {
                queues.add(queueParser.parse(name, text, offset, length));
            }
        });
        return queues;
    }

    private static void read(InputStream output, String key, String command, Entries entries)
            throws IOException, SchedulerReadException {
        List<String> keys;
        try {
            keys = JsonMembers.read(output, List.of(new JsonMembers.Section(key, JsonMembers.Shape.OBJECT, entries)));
        } catch (MalformedJsonException e) {
            throw new SchedulerReadException("`" + command + "` printed output that cannot be read as JSON: "
                    + e.getMessage() + "; nothing was changed. Run the command by hand to see what it prints.");
        }
        if (!keys.contains(key) && keys.stream().noneMatch(HEADER_KEYS::contains)) {
            throw new SchedulerReadException("`" + command + "` printed a JSON object without \"" + key
                    + "\" or a PBS header (" + String.join(", ", HEADER_KEYS) + "); is it really PBS's "
                    + "command? Nothing was changed.");
        }
    }

    /** Parses each entry on its own: whatever one entry holds, it costs only itself. */
    private abstract class Entries implements JsonMembers.Entries {
        private final String what;
        private final Set<String> unreadable;

        Entries(String what, Set<String> unreadable) {
            this.what = what;
            this.unreadable = unreadable;
        }

        abstract void parse(String name, byte[] text, int offset, int length) throws IOException;

        @Override
        public void entry(String name, byte[] text, int offset, int length) {
            try {
                if (name.isBlank()) {
                    throw new IllegalArgumentException("its name is empty");
                }
                parse(name, text, offset, length);
            } catch (IOException | RuntimeException e) {
                unreadable.add(name);
                skipped.skipped(what, name, e);
            }
        }

        @Override
        public void tooLarge(String name, long length) {
            unreadable.add(name);
            skipped.skipped(what, name, "it takes " + length + " bytes, more than the " + JsonMembers.MAX_ENTRY_BYTES
                    + " one entry may take");
        }
    }
}
