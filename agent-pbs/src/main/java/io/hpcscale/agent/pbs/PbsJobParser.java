package io.hpcscale.agent.pbs;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.hpcscale.common.agent.SchedulerJob;
import io.hpcscale.common.json.LenientJson;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.JobTimes;
import io.hpcscale.common.model.Placement;
import java.io.IOException;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One job of {@code qstat -f -t -F json}. Reads only the attributes that matter for scaling and skips the rest
 * (environment lists can be large and are where PBS prints invalid numbers). Which nodes a job holds comes from its
 * own {@code exec_host}, whatever its state: a suspended job, or one that was starting when the server restarted,
 * is missing from its node's {@code jobs} in pbsnodes, and its node must not look idle.
 */
final class PbsJobParser {
    private static final JsonMapper JSON = LenientJson.mapper();

    private final ZoneId serverZone;

    PbsJobParser(ZoneId serverZone) {
        this.serverZone = serverZone;
    }

    /**
     * @return the job, or empty for entries that are not demand of their own: array parents (their subjobs are
     *         listed and counted) and finished jobs
     * @throws IOException              the entry is not JSON even leniently read
     * @throws IllegalArgumentException an attribute hpcscale needs cannot be understood ({@link
     *                                  UnreadableJobException} when its {@code exec_host} could be read)
     */
    Optional<SchedulerJob> parse(String id, byte[] text, int offset, int length, PbsQueues queues)
            throws IOException {
        Map<String, String> attributes = new HashMap<>();
        Map<String, String> resources = new HashMap<>();
        try (JsonParser parser = JSON.createParser(text, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("the entry is not an object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "job_state", "queue", "qtime", "ctime", "stime", "Hold_Types", "depend", "array",
                            "exec_host", "Job_Owner" -> {
                        if (value.isScalarValue()) {
                            attributes.put(field, parser.getValueAsString());
                        } else {
                            parser.skipChildren();
                        }
                    }
                    case "Resource_List" -> readResources(parser, value, resources);
                    default -> parser.skipChildren();
                }
            }
        }
        return toJob(id, attributes, resources, queues);
    }

    /** The scalar entries of {@code Resource_List}, read as they stream by rather than built into a tree. */
    private static void readResources(JsonParser parser, JsonToken value, Map<String, String> resources)
            throws IOException {
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return;
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken resource = parser.nextToken();
            if (resource.isScalarValue() && resource != JsonToken.VALUE_NULL) {
                resources.put(name, parser.getValueAsString());
            } else {
                parser.skipChildren();
            }
        }
    }

    private Optional<SchedulerJob> toJob(String id, Map<String, String> attributes, Map<String, String> resources,
            PbsQueues queues) {
        List<String> hosts = SlotList.execHosts(attributes.get("exec_host"));
        try {
            return toJob(id, attributes, resources, queues, hosts);
        } catch (IllegalArgumentException e) {
            throw hosts.isEmpty() ? e : new UnreadableJobException(e.getMessage(), hosts);
        }
    }

    private Optional<SchedulerJob> toJob(String id, Map<String, String> attributes, Map<String, String> resources,
            PbsQueues queues, List<String> hosts) {
        String stateLetter = attributes.get("job_state");
        if (stateLetter == null || stateLetter.isBlank()) {
            throw new IllegalArgumentException("it has no job_state");
        }
        if (isArrayParent(id, stateLetter, attributes)) {
            return Optional.empty();
        }
        JobState state = state(stateLetter.trim(), attributes);
        if (state == JobState.Finished) {
            return Optional.empty();
        }
        String queue = attributes.get("queue");
        if (queue == null || queue.isBlank()) {
            throw new IllegalArgumentException("it has no queue");
        }
        if (state == JobState.Queued && queues.stopped(queue)) {
            state = JobState.Hold;
        }
        ResourceList list = new ResourceList(resources);
        PbsPlace place = PbsPlace.parse(list.text("place"));
        SelectSpec.Totals totals = new SelectSpec.Totals(list.number("ncpus"), list.memoryMb("mem"),
                list.number("ngpus"));
        Long nodect = list.number("nodect");
        String select = list.text("select");
        List<Chunk> chunks = select != null && !select.isBlank()
                ? SelectSpec.chunks(select, totals)
                : SelectSpec.fromTotals(nodect == null ? 1 : Math.toIntExact(nodect), totals);
        int nodes = nodect != null ? Math.toIntExact(nodect) : nodeCount(chunks, place.placement());
        return Optional.of(new SchedulerJob(id, List.of(queue), state, chunks, nodes, place.placement(),
                queues.sharing().exclusive(queue, place.sharing()),
                PbsTime.parse(Optional.ofNullable(attributes.get("qtime")).orElse(attributes.get("ctime")),
                        serverZone), hosts, null, PbsAsks.of(select, resources, attributes.get("Job_Owner")),
                new JobTimes(PbsDuration.parse(list.text("walltime")), runsOnItsClock(stateLetter)
                        ? PbsTime.parse(attributes.get("stime"), serverZone) : null)));
    }

    /**
     * Running or exiting: its walltime runs from its start. A suspended job's does not while it is suspended, so its
     * end cannot be told from its start.
     */
    private static boolean runsOnItsClock(String stateLetter) {
        String letter = stateLetter.trim();
        return letter.equals("R") || letter.equals("E");
    }

    private static boolean isArrayParent(String id, String state, Map<String, String> attributes) {
        return state.trim().equals("B") || id.contains("[]") || "True".equalsIgnoreCase(attributes.get("array"));
    }

    private static int nodeCount(List<Chunk> chunks, Placement placement) {
        if (placement == Placement.pack) {
            return 1;
        }
        return chunks.stream().mapToInt(Chunk::count).sum();
    }

    /**
     * Q queued, H held (Waiting when the hold is the system hold of a dependency), W waiting for its start time,
     * R running, E exiting (still holds its nodes), T in transit to another queue (still demand), S and U suspended
     * (they keep their place on the node), X expired subjob, F finished, M moved away.
     */
    private static JobState state(String letter, Map<String, String> attributes) {
        return switch (letter) {
            case "Q", "T" -> JobState.Queued;
            case "H" -> attributes.get("depend") != null
                    && attributes.getOrDefault("Hold_Types", "").contains("s") ? JobState.Waiting : JobState.Hold;
            case "W" -> JobState.Waiting;
            case "R", "E", "S", "U" -> JobState.Running;
            case "X", "F", "M" -> JobState.Finished;
            default -> JobState.Unknown;
        };
    }

    /** {@code Resource_List} values, which PBS prints as strings or numbers. */
    private static final class ResourceList {
        private final Map<String, String> values;

        ResourceList(Map<String, String> values) {
            this.values = values;
        }

        String text(String name) {
            return values.get(name);
        }

        Long number(String name) {
            String text = text(name);
            if (text == null) {
                return null;
            }
            try {
                return Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("Resource_List." + name + " is '" + text + "', not a number");
            }
        }

        Long memoryMb(String name) {
            String text = text(name);
            return text == null ? null : PbsSize.toMebibytes(text);
        }
    }
}
