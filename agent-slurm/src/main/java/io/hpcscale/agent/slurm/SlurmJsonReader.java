package io.hpcscale.agent.slurm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.agent.EpochSeconds;
import io.hpcscale.common.agent.SchedulerReadException;
import io.hpcscale.common.agent.UnreadableEntryLog;
import io.hpcscale.common.json.EntryCache;
import io.hpcscale.common.json.JsonMembers;
import io.hpcscale.common.json.LenientJson;
import io.hpcscale.common.json.MalformedJsonException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads {@code squeue --json} and {@code sinfo --json} of the OpenAPI data formats v0.0.37 (Slurm 21.08) and
 * v0.0.38 (Slurm 22.05). Any other format is refused with a message saying so, rather than misread: later formats
 * changed the shape of numbers and states. The output is read as it is printed, and each job and node is parsed on
 * its own, so one that cannot be read is skipped and named, and all others are kept; one printed exactly as at the
 * last read is not parsed again. A {@code jobs} or {@code nodes} that is not a JSON array fails the read: it is not
 * an empty cluster.
 */
final class SlurmJsonReader {
    static final Set<String> FORMATS = Set.of("openapi/v0.0.37", "openapi/v0.0.38");
    /** Pending tasks counted per array: more than any pool could ever run at once. */
    static final int MAX_ARRAY_TASKS = 10_000;
    private static final JsonMapper JSON = LenientJson.mapper();

    private final UnreadableEntryLog log;
    private final EntryCache<List<SlurmJob>> parsedJobs = new EntryCache<>();
    private final EntryCache<List<SlurmNode>> parsedNodes = new EntryCache<>();

    SlurmJsonReader(UnreadableEntryLog log) {
        this.log = log;
    }

    /**
     * What one output held.
     *
     * @param format the data format and Slurm release the output names, e.g. "openapi/v0.0.38 (Slurm 22.05.8)"
     */
    record Read<T>(SlurmReadResult<T> result, String format) {
    }

    Read<SlurmJob> jobs(InputStream output, String command) throws IOException, SchedulerReadException {
        return read(output, command, new Entries<>("jobs", "job", "job_id", parsedJobs, SlurmJsonReader::job));
    }

    Read<SlurmNode> nodes(InputStream output, String command) throws IOException, SchedulerReadException {
        return read(output, command, new Entries<>("nodes", "node", "name", parsedNodes,
                json -> List.of(node(json))));
    }

    /**
     * Reads the output as it is printed: {@code meta} (which Slurm prints first) says whether this agent can read
     * its entries at all, {@code errors} whether Slurm could answer, and then each entry is parsed on its own.
     */
    private <T> Read<T> read(InputStream output, String command, Entries<T> entries)
            throws IOException, SchedulerReadException {
        List<String> keys;
        entries.parsed.beginRead(null);
        try {
            keys = JsonMembers.read(output, List.of(
                    new JsonMembers.Section("meta", JsonMembers.Shape.OBJECT, entries.meta),
                    new JsonMembers.Section("errors", JsonMembers.Shape.ARRAY, entries.errors),
                    new JsonMembers.Section(entries.key, JsonMembers.Shape.ARRAY, entries)));
        } catch (MalformedJsonException e) {
            throw new SchedulerReadException("`" + command + "` printed output that cannot be read as JSON: "
                    + e.getMessage() + "; nothing was changed");
        }
        if (!keys.contains("meta")) {
            throw new SchedulerReadException("`" + command + "` printed JSON without \"meta\"; is this Slurm's "
                    + "command? Nothing was changed.");
        }
        if (entries.meta.problem != null) {
            throw new SchedulerReadException("`" + command + "` printed output that cannot be read as JSON: its "
                    + "\"meta\" " + entries.meta.problem + "; nothing was changed");
        }
        String format = entries.meta.format();
        if (!FORMATS.contains(format)) {
            throw new SchedulerReadException("`" + command + "` prints the data format '" + format + "' (Slurm "
                    + entries.meta.release() + "), which this agent cannot read (it reads "
                    + String.join(", ", FORMATS.stream().sorted().toList()) + "); set agent.slurm.format = pipe to "
                    + "read squeue's and sinfo's pipe-separated output instead. Nothing was changed.");
        }
        if (entries.errors.first != null) {
            throw new SchedulerReadException("`" + command + "` reported an error: " + entries.errors.first
                    + "; nothing was changed");
        }
        if (!keys.contains(entries.key)) {
            throw new SchedulerReadException("`" + command + "` printed no \"" + entries.key + "\" list; nothing was "
                    + "changed");
        }
        entries.parsed.endRead();
        return new Read<>(new SlurmReadResult<>(entries.values, entries.unreadable),
                format + " (Slurm " + entries.meta.release() + ")");
    }

    /** The members of {@code meta}: the data format and the Slurm release. */
    private static final class Meta implements JsonMembers.Entries {
        private final ObjectNode members = JSON.createObjectNode();
        private String problem;

        @Override
        public void entry(String name, byte[] text, int offset, int length) {
            try {
                members.set(name, JSON.readTree(JSON.createParser(text, offset, length)));
            } catch (IOException e) {
                problem = "member \"" + name + "\" is not JSON: " + e.getMessage();
            }
        }

        @Override
        public void tooLarge(String name, long length) {
            problem = "member \"" + name + "\" takes " + length + " bytes";
        }

        boolean seen() {
            return !members.isEmpty();
        }

        String format() {
            return members.path("plugin").path("type").asText("");
        }

        String release() {
            return members.path("Slurm").path("release").asText("of unknown release");
        }
    }

    /** The first of Slurm's {@code errors}, if any. */
    private static final class Errors implements JsonMembers.Entries {
        private String first;

        @Override
        public void entry(String name, byte[] text, int offset, int length) {
            if (first == null) {
                first = new String(text, offset, length, StandardCharsets.UTF_8);
            }
        }

        @Override
        public void tooLarge(String name, long length) {
            if (first == null) {
                first = "an error of " + length + " bytes";
            }
        }
    }

    /**
     * Parses each entry of the list on its own: whatever one entry holds, it costs only itself. Once {@code meta} or
     * {@code errors} says the output will be refused, the entries are no longer parsed, so that a format this agent
     * cannot read does not log every entry as unreadable.
     */
    private final class Entries<T> implements JsonMembers.Entries {
        final String key;
        final Meta meta = new Meta();
        final Errors errors = new Errors();
        final EntryCache<List<T>> parsed;
        final List<T> values = new ArrayList<>();
        final Set<String> unreadable = new HashSet<>();
        private final String what;
        private final String idField;
        private final Function<JsonNode, List<T>> parse;
        private int count;

        Entries(String key, String what, String idField, EntryCache<List<T>> parsed,
                Function<JsonNode, List<T>> parse) {
            this.key = key;
            this.what = what;
            this.idField = idField;
            this.parsed = parsed;
            this.parse = parse;
        }

        private boolean refused() {
            return errors.first != null || meta.problem != null || (meta.seen() && !FORMATS.contains(meta.format()));
        }

        @Override
        public void entry(String name, byte[] text, int offset, int length) {
            count++;
            if (refused()) {
                return;
            }
            try {
                values.addAll(parsed.get(null, text, offset, length, (t, o, l) -> parse.apply(object(t, o, l))));
            } catch (IOException | RuntimeException e) {
                String id = idOf(text, offset, length);
                unreadable.add(id);
                log.skipped(what, id, e);
            }
        }

        @Override
        public void tooLarge(String name, long length) {
            count++;
            String id = "entry " + count;
            unreadable.add(id);
            log.skipped(what, id, "it takes " + length + " bytes, more than the " + JsonMembers.MAX_ENTRY_BYTES
                    + " one entry may take");
        }

        /** The id the entry gives itself, if it can be read that far; else its place in the list. */
        private String idOf(byte[] text, int offset, int length) {
            try {
                String id = object(text, offset, length).path(idField).asText("");
                return id.isBlank() ? "entry " + count : id;
            } catch (IOException | RuntimeException e) {
                return "entry " + count;
            }
        }
    }

    private static JsonNode object(byte[] text, int offset, int length) throws IOException {
        JsonNode json = JSON.readTree(JSON.createParser(text, offset, length));
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException("the entry is not an object");
        }
        return json;
    }

    /** A job, or for a pending array with unexpanded tasks ({@code 4-6%4}), one job per task. */
    private static List<SlurmJob> job(JsonNode json) {
        JsonNode id = required(json, "job_id");
        long jobId = id.asLong();
        if (jobId <= 0) {
            throw new IllegalArgumentException("its job_id is '" + id.asText() + "', not a job id");
        }
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
                time(json, "submit_time"),
                text(json, "nodes"), text(json, "features"), text(json, "licenses"), text(json, "admin_comment"),
                SlurmTimeLimit.fromJson(json.get("time_limit")), time(json, "start_time"), time(json, "end_time"));
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
        if (name.isBlank()) {
            throw new IllegalArgumentException("its name is empty");
        }
        String state = text(json, "state");
        if (state == null) {
            throw new IllegalArgumentException("it has no state");
        }
        Set<String> flags = new LinkedHashSet<>();
        json.path("state_flags").forEach(f -> flags.add(f.asText().toUpperCase(Locale.ROOT)));
        List<String> partitions = new ArrayList<>();
        json.path("partitions").forEach(p -> partitions.add(p.asText()));
        return new SlurmNode(name, partitions, state.toLowerCase(Locale.ROOT), flags, json.path("cpus").asInt(0),
                json.path("alloc_cpus").asInt(0), json.path("real_memory").asLong(0),
                json.path("alloc_memory").asLong(0), text(json, "gres"), text(json, "gres_used"),
                text(json, "reason"), time(json, "last_busy"));
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

    /** Seconds since 1970 as Slurm prints them; null when unset, or not a time at all. */
    private static Instant time(JsonNode json, String field) {
        JsonNode value = json.get(field);
        return value != null && value.canConvertToLong() ? EpochSeconds.toInstant(value.asLong()) : null;
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
