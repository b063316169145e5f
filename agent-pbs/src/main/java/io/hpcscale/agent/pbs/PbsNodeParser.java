package io.hpcscale.agent.pbs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.hpcscale.common.agent.EpochSeconds;
import io.hpcscale.common.agent.OfflineMarker;
import io.hpcscale.common.agent.SchedulerNode;
import io.hpcscale.common.json.LenientJson;
import io.hpcscale.common.model.NodeJobStatus;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One node of {@code pbsnodes -a -F json}. Its state is a comma-separated list ({@code free}, {@code job-busy},
 * {@code job-exclusive}, {@code resv-exclusive}, {@code offline}, {@code down}, {@code state-unknown},
 * {@code down,offline}, ...).
 */
final class PbsNodeParser {
    private static final JsonMapper JSON = LenientJson.mapper();
    private static final Set<String> BUSY_STATES = Set.of("job-busy", "job-exclusive", "resv-exclusive", "busy");
    private static final Set<String> DOWN_STATES = Set.of("down", "state-unknown", "stale", "unresolvable");
    /** A job or reservation holds the node: whatever CPUs it shows unused, no other job is placed there. */
    private static final Set<String> EXCLUSIVE_STATES = Set.of("job-exclusive", "resv-exclusive");
    /** What the server itself writes on a node whose mom went away, and removes when it returns. */
    private static final String SERVER_DOWN_COMMENT = "node down:";

    /** The node, with the {@code sharing} attribute that decides its queue's default exclusivity. */
    record PbsNode(SchedulerNode node, String sharing) {
    }

    /**
     * @throws IOException              the entry is not JSON even leniently read
     * @throws IllegalArgumentException an attribute hpcscale needs cannot be understood
     */
    PbsNode parse(String name, byte[] text, int offset, int length) throws IOException {
        JsonNode json = JSON.readTree(JSON.createParser(text, offset, length));
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException("the entry is not an object");
        }
        String stateText = textOf(json.get("state"));
        if (stateText == null || stateText.isBlank()) {
            throw new IllegalArgumentException("it has no state");
        }
        Set<String> states = new LinkedHashSet<>();
        Arrays.stream(stateText.split(",")).map(String::trim).filter(s -> !s.isEmpty()).forEach(states::add);
        boolean offline = states.stream().anyMatch(s -> s.startsWith("offline"));
        boolean down = states.stream().anyMatch(DOWN_STATES::contains);
        List<String> jobIds = jobIds(json.get("jobs"));
        boolean busy = !jobIds.isEmpty() || states.stream().anyMatch(BUSY_STATES::contains);
        JsonNode available = json.path("resources_available");
        JsonNode assigned = json.path("resources_assigned");
        SchedulerNode node = new SchedulerNode(name, queues(json), busy ? NodeJobStatus.Busy : NodeJobStatus.Free,
                stateText, OfflineMarker.markOf(offline, ownComment(textOf(json.get("comment")))), down,
                states.stream().anyMatch(EXCLUSIVE_STATES::contains),
                intOf(available, "ncpus", json.path("pcpus").asInt(0)), intOf(assigned, "ncpus", 0),
                memoryOf(available), memoryOf(assigned), intOf(available, "ngpus", 0), intOf(assigned, "ngpus", 0),
                jobIds, lastUsed(json.get("last_used_time")));
        return new PbsNode(node, textOf(json.get("sharing")));
    }

    /**
     * The comment someone set on the node, or null: the server's own {@code node down: ...} is nobody's mark (it
     * shows only on a node that has no comment of its own).
     */
    private static String ownComment(String comment) {
        return comment == null || comment.startsWith(SERVER_DOWN_COMMENT) ? null : comment;
    }

    /** The node's own {@code queue}, else its {@code resources_available.Qlist}. */
    private static List<String> queues(JsonNode json) {
        String queue = textOf(json.get("queue"));
        if (queue != null && !queue.isBlank()) {
            return List.of(queue.trim());
        }
        String qlist = textOf(json.path("resources_available").get("Qlist"));
        if (qlist == null || qlist.isBlank()) {
            return List.of();
        }
        return Arrays.stream(qlist.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** Jobs are listed once per CPU ({@code 110700.pbsserver/3}); older servers print one comma-separated string. */
    private static List<String> jobIds(JsonNode jobs) {
        if (jobs == null || jobs.isNull()) {
            return List.of();
        }
        List<String> entries = new ArrayList<>();
        if (jobs.isArray()) {
            jobs.forEach(j -> entries.add(j.asText()));
        } else {
            entries.addAll(Arrays.asList(jobs.asText().split(",")));
        }
        return SlotList.withoutSlots(entries);
    }

    private static int intOf(JsonNode resources, String name, int fallback) {
        String text = textOf(resources.get(name));
        if (text == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is '" + text + "', not a number");
        }
    }

    private static long memoryOf(JsonNode resources) {
        String text = textOf(resources.get("mem"));
        return text == null ? 0 : PbsSize.toMebibytes(text);
    }

    private static Instant lastUsed(JsonNode value) {
        return value != null && value.canConvertToLong() ? EpochSeconds.toInstant(value.asLong()) : null;
    }

    private static String textOf(JsonNode value) {
        return value == null || value.isNull() || value.isContainerNode() ? null : value.asText();
    }
}
