package io.hpcscale.agent.pbs;

import com.fasterxml.jackson.databind.JsonNode;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.UnreadableEntryLog;
import io.hpcscale.common.json.JsonMembers;
import io.hpcscale.common.json.LenientJson;
import io.hpcscale.common.json.MalformedJsonException;
import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads whole outputs of {@code qstat -f -t -F json} and {@code pbsnodes -a -F json}. Each job and node is parsed on
 * its own: one that cannot be read is skipped and named in one log line (repeated only if it goes away and comes
 * back), and every other one is kept. Only output that is not a PBS JSON document at all fails the read.
 */
final class PbsOutputParser {
    private static final Set<String> HEADER_KEYS = Set.of("pbs_version", "pbs_server", "timestamp");

    private final PbsJobParser jobParser;
    private final PbsNodeParser nodeParser = new PbsNodeParser();
    private final UnreadableEntryLog skipped = new UnreadableEntryLog();

    PbsOutputParser(ZoneId serverZone) {
        this.jobParser = new PbsJobParser(serverZone);
    }

    record Jobs(List<SchedulerJob> jobs, Set<String> unreadable) {
    }

    record Nodes(List<SchedulerNode> nodes, Set<String> unreadable, QueueSharing sharing) {
    }

    Jobs jobs(byte[] output, String command, PbsQueues queues) throws SchedulerReadException {
        JsonMembers.Section section = section(output, "Jobs", command);
        List<SchedulerJob> jobs = new ArrayList<>(section.entries().size());
        Set<String> unreadable = new HashSet<>();
        for (JsonMembers.Entry entry : section.entries()) {
            try {
                Optional<SchedulerJob> job = jobParser.parse(entry.name(), output, entry.start(), entry.length(),
                        queues);
                job.ifPresent(jobs::add);
            } catch (IOException | IllegalArgumentException | ArithmeticException e) {
                unreadable.add(entry.name());
                skipped.skipped("job", entry.name(), e);
            }
        }
        skipped.endRead();
        return new Jobs(jobs, unreadable);
    }

    Nodes nodes(byte[] output, String stderr, String command) throws SchedulerReadException {
        if (output.length == 0 && stderr.contains("No nodes found")) {
            return new Nodes(List.of(), Set.of(), QueueSharing.none());
        }
        JsonMembers.Section section = section(output, "nodes", command);
        List<SchedulerNode> nodes = new ArrayList<>(section.entries().size());
        List<QueueSharing.NodeSharing> sharing = new ArrayList<>();
        Set<String> unreadable = new HashSet<>();
        for (JsonMembers.Entry entry : section.entries()) {
            try {
                PbsNodeParser.PbsNode node = nodeParser.parse(entry.name(), output, entry.start(), entry.length());
                nodes.add(node.node());
                sharing.add(new QueueSharing.NodeSharing(node.node().queues(), node.sharing()));
            } catch (IOException | IllegalArgumentException | ArithmeticException e) {
                unreadable.add(entry.name());
                skipped.skipped("node", entry.name(), e);
            }
        }
        return new Nodes(nodes, unreadable, QueueSharing.of(sharing));
    }

    /** Queues whose {@code started} is False, from {@code qstat -Q -f -F json}. */
    Set<String> stoppedQueues(byte[] output, String command) throws SchedulerReadException {
        JsonMembers.Section section = section(output, "Queue", command);
        Set<String> stopped = new HashSet<>();
        for (JsonMembers.Entry entry : section.entries()) {
            try {
                JsonNode queue = LenientJson.mapper().readTree(LenientJson.mapper().createParser(output, entry.start(),
                        entry.length()));
                if (queue != null && "false".equalsIgnoreCase(queue.path("started").asText())) {
                    stopped.add(entry.name());
                }
            } catch (IOException e) {
                skipped.skipped("queue", entry.name(), e);
            }
        }
        return stopped;
    }

    private static JsonMembers.Section section(byte[] output, String key, String command)
            throws SchedulerReadException {
        JsonMembers.Section section;
        try {
            section = JsonMembers.section(output, key);
        } catch (MalformedJsonException e) {
            throw new SchedulerReadException("`" + command + "` printed output that cannot be read as JSON: "
                    + e.getMessage() + "; nothing was changed. Run the command by hand to see what it prints.");
        }
        if (!section.present() && section.topLevelKeys().stream().noneMatch(HEADER_KEYS::contains)) {
            throw new SchedulerReadException("`" + command + "` printed a JSON object without \"" + key
                    + "\" or a PBS header (" + String.join(", ", HEADER_KEYS) + "); is it really PBS's "
                    + "command? Nothing was changed.");
        }
        return section;
    }
}
