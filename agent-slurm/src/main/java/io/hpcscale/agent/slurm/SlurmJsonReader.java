package io.hpcscale.agent.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.UnreadableEntryLog;
import io.hpcscale.common.json.JsonMembers;
import io.hpcscale.common.json.LenientJson;
import io.hpcscale.common.json.MalformedJsonException;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads {@code squeue --json} and {@code sinfo --json} of the OpenAPI data formats v0.0.37 (Slurm 21.08) and
 * v0.0.38 (Slurm 22.05). Any other format is refused with a message saying so, rather than misread: later formats
 * changed the shape of numbers and states. Each job and node is parsed on its own, so one that cannot be read is
 * skipped and named, and all others are kept.
 */
final class SlurmJsonReader {
    static final Set<String> FORMATS = Set.of("openapi/v0.0.37", "openapi/v0.0.38");
    /** Pending tasks counted per array: more than any pool could ever run at once. */
    static final int MAX_ARRAY_TASKS = 10_000;
    private static final JsonMapper JSON = LenientJson.mapper();

    private final UnreadableEntryLog log;

    SlurmJsonReader(UnreadableEntryLog log) {
        this.log = log;
    }

    /** The data format and Slurm release the output names, e.g. "openapi/v0.0.38 (Slurm 22.05.8)". */
    static String describeFormat(byte[] output, String command) throws SchedulerReadException {
        JsonNode meta = meta(output, command);
        return meta.path("plugin").path("type").asText("no format") + " (Slurm "
                + meta.path("Slurm").path("release").asText("of unknown release") + ")";
    }

    SlurmReadResult<SlurmJob> jobs(byte[] output, String command) throws SchedulerReadException {
        List<JsonMembers.Entry> entries = entries(output, "jobs", command);
        List<SlurmJob> jobs = new ArrayList<>(entries.size());
        Set<String> unreadable = new HashSet<>();
        for (JsonMembers.Entry entry : entries) {
            JsonNode json = null;
            try {
                json = JSON.readTree(JSON.createParser(output, entry.start(), entry.length()));
                jobs.addAll(job(json));
            } catch (IOException | IllegalArgumentException e) {
                String id = json == null ? "at byte " + entry.start() : json.path("job_id").asText("?");
                unreadable.add(id);
                log.skipped("job", id, e);
            }
        }
        return new SlurmReadResult<>(jobs, unreadable);
    }

    SlurmReadResult<SlurmNode> nodes(byte[] output, String command) throws SchedulerReadException {
        List<JsonMembers.Entry> entries = entries(output, "nodes", command);
        List<SlurmNode> nodes = new ArrayList<>(entries.size());
        Set<String> unreadable = new HashSet<>();
        for (JsonMembers.Entry entry : entries) {
            JsonNode json = null;
            try {
                json = JSON.readTree(JSON.createParser(output, entry.start(), entry.length()));
                nodes.add(node(json));
            } catch (IOException | IllegalArgumentException e) {
                String name = json == null ? "at byte " + entry.start() : json.path("name").asText("?");
                unreadable.add(name);
                log.skipped("node", name, e);
            }
        }
        return new SlurmReadResult<>(nodes, unreadable);
    }

    /** A job, or for a pending array with unexpanded tasks ({@code 4-6%4}), one job per task. */
    private static List<SlurmJob> job(JsonNode json) {
        long jobId = required(json, "job_id").asLong();
        String state = text(json, "job_state");
        if (state == null) {
            throw new IllegalArgumentException("it has no job_state");
        }
        long arrayJobId = json.path("array_job_id").asLong(0);
        JsonNode taskId = json.get("array_task_id");
        String taskString = text(json, "array_task_string");
        SlurmJob job = new SlurmJob(String.valueOf(jobId), partitions(text(json, "partition")), state,
                text(json, "state_reason"), json.path("priority").asLong(1), json.path("node_count").asInt(1),
                json.path("cpus").asInt(1), json.path("minimum_cpus_per_node").asInt(0),
                number(json, "memory_per_node"), number(json, "memory_per_cpu"), text(json, "tres_per_node"),
                text(json, "tres_per_job"), "none".equalsIgnoreCase(text(json, "shared")),
                json.hasNonNull("submit_time") ? Instant.ofEpochSecond(json.get("submit_time").asLong()) : null,
                text(json, "nodes"));
        if (arrayJobId != 0 && taskId != null && !taskId.isNull()) {
            return List.of(job.withId(arrayJobId + "_" + taskId.asLong()));
        }
        if (arrayJobId != 0 && taskString != null && !taskString.isBlank()) {
            List<SlurmJob> tasks = new ArrayList<>();
            for (long task : ArrayTasks.expand(taskString, MAX_ARRAY_TASKS)) {
                tasks.add(job.withId(arrayJobId + "_" + task));
            }
            return tasks;
        }
        return List.of(job);
    }

    private static SlurmNode node(JsonNode json) {
        String name = required(json, "name").asText();
        String state = text(json, "state");
        if (state == null) {
            throw new IllegalArgumentException("it has no state");
        }
        Set<String> flags = new LinkedHashSet<>();
        json.path("state_flags").forEach(f -> flags.add(f.asText().toUpperCase(Locale.ROOT)));
        List<String> partitions = new ArrayList<>();
        json.path("partitions").forEach(p -> partitions.add(p.asText()));
        long lastBusy = json.path("last_busy").asLong(0);
        return new SlurmNode(name, partitions, state.toLowerCase(Locale.ROOT), flags, json.path("cpus").asInt(0),
                json.path("alloc_cpus").asInt(0), json.path("real_memory").asLong(0),
                json.path("alloc_memory").asLong(0), text(json, "gres"), text(json, "gres_used"),
                text(json, "reason"), lastBusy > 0 ? Instant.ofEpochSecond(lastBusy) : null);
    }

    private static List<JsonMembers.Entry> entries(byte[] output, String key, String command)
            throws SchedulerReadException {
        JsonNode meta = meta(output, command);
        String format = meta.path("plugin").path("type").asText("");
        if (!FORMATS.contains(format)) {
            throw new SchedulerReadException("`" + command + "` prints the data format '" + format + "' (Slurm "
                    + meta.path("Slurm").path("release").asText("?") + "), which this agent cannot read (it reads "
                    + String.join(", ", FORMATS.stream().sorted().toList()) + "); set agent.slurm.format = pipe to "
                    + "read squeue's and sinfo's pipe-separated output instead. Nothing was changed.");
        }
        JsonMembers.Section errors;
        JsonMembers.Section section;
        try {
            errors = JsonMembers.section(output, "errors");
            section = JsonMembers.section(output, key);
        } catch (MalformedJsonException e) {
            throw new SchedulerReadException("`" + command + "` printed output that cannot be read as JSON: "
                    + e.getMessage() + "; nothing was changed");
        }
        if (!errors.entries().isEmpty()) {
            String first = new String(output, errors.entries().get(0).start(), errors.entries().get(0).length(),
                    java.nio.charset.StandardCharsets.UTF_8);
            throw new SchedulerReadException("`" + command + "` reported an error: " + first
                    + "; nothing was changed");
        }
        if (!section.present()) {
            throw new SchedulerReadException("`" + command + "` printed no \"" + key + "\" list; nothing was changed");
        }
        return section.entries();
    }

    private static JsonNode meta(byte[] output, String command) throws SchedulerReadException {
        try {
            JsonMembers.Section meta = JsonMembers.section(output, "meta");
            if (!meta.present()) {
                throw new SchedulerReadException("`" + command + "` printed JSON without \"meta\"; is this Slurm's "
                        + "command? Nothing was changed.");
            }
            com.fasterxml.jackson.databind.node.ObjectNode result = JSON.createObjectNode();
            for (JsonMembers.Entry entry : meta.entries()) {
                result.set(entry.name(), JSON.readTree(JSON.createParser(output, entry.start(), entry.length())));
            }
            return result;
        } catch (MalformedJsonException | IOException e) {
            throw new SchedulerReadException("`" + command + "` printed output that cannot be read as JSON: "
                    + e.getMessage() + "; nothing was changed");
        }
    }

    private static JsonNode required(JsonNode json, String field) {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("it has no " + field);
        }
        return value;
    }

    private static String text(JsonNode json, String field) {
        JsonNode value = json.get(field);
        return value == null || value.isNull() || value.isContainerNode() ? null : value.asText();
    }

    private static Long number(JsonNode json, String field) {
        JsonNode value = json.get(field);
        return value == null || value.isNull() || !value.canConvertToLong() ? null : value.asLong();
    }

    static List<String> partitions(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        return Arrays.stream(text.split(",")).map(String::strip).filter(p -> !p.isEmpty()).toList();
    }
}
