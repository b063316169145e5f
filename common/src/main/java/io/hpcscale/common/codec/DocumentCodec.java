package io.hpcscale.common.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobTimes;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.VmDocument;
import io.hpcscale.common.model.WaitReasonsDocument;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Converts typed ClusterLoad documents to and from their JSON form (schema version 1): those agents and the scaler
 * exchange here, a program's own through the {@link DocumentFormat}s its modules bring.
 */
public final class DocumentCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Read once: the class path does not change while a program runs. */
    private static final Map<DocumentType, DocumentFormat<?>> OWN_FORMATS = installedFormats();

    public ObjectNode encode(ClusterLoadDocument document) {
        ObjectNode json = NODES.objectNode();
        json.put(Fields.ID, document.id());
        json.put(Fields.TYPE, document.type().wireName());
        json.put(Fields.POOL_NAME, document.poolName());
        json.put(Fields.SCHEMA_VERSION, ClusterLoadDocument.SCHEMA_VERSION);
        if (document instanceof JobDocument job) {
            encodeJob(job, json);
        } else if (document instanceof VmDocument vm) {
            encodeVm(vm, json);
        } else if (document instanceof DrainDocument drain) {
            encodeDrain(drain, json);
        } else if (document instanceof AgentDocument agent) {
            encodeAgent(agent, json);
        } else if (document instanceof PowerDocument power) {
            encodePower(power, json);
        } else if (document instanceof NoticeDocument notice) {
            encodeNotice(notice, json);
        } else if (document instanceof HealthDocument health) {
            encodeHealth(health, json);
        } else if (document instanceof WaitReasonsDocument reasons) {
            encodeWaitReasons(reasons, json);
        } else if (document instanceof ChangeMarkerDocument marker) {
            FieldWriter.putInstant(json, Fields.CHANGED_AT, marker.changedAt());
        } else {
            encodeOwn(formatOf(document.type()).orElseThrow(() -> new IllegalStateException("no format for "
                    + document.type().wireName() + " documents here: the module that owns them is not installed")),
                    document, json);
        }
        withoutNulls(json);
        return json;
    }

    /**
     * A field whose value is null is left out, at any depth: a missing field reads as null, and every byte written is
     * paid for (Cosmos DB charges writes per KB; an instance record of a scaler state held about 60 bytes of nulls,
     * two hundred of them in a pool of that size).
     */
    private static void withoutNulls(ObjectNode json) {
        Iterator<Map.Entry<String, JsonNode>> fields = json.fields();
        while (fields.hasNext()) {
            JsonNode value = fields.next().getValue();
            if (value.isNull()) {
                fields.remove();
            } else if (value.isObject()) {
                withoutNulls((ObjectNode) value);
            }
        }
    }

    public ClusterLoadDocument decode(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw new DocumentFormatException("a stored document is not a JSON object");
        }
        FieldReader fields = new FieldReader(json);
        String typeName = fields.requiredText(Fields.TYPE);
        DocumentType type = DocumentType.fromWireName(typeName)
                .orElseThrow(() -> fields.fail(Fields.TYPE, "has an unknown value '" + typeName + "'"));
        long schemaVersion = fields.number(Fields.SCHEMA_VERSION, ClusterLoadDocument.SCHEMA_VERSION);
        if (schemaVersion > ClusterLoadDocument.SCHEMA_VERSION) {
            throw fields.fail(Fields.SCHEMA_VERSION, "is " + schemaVersion
                    + ", written by a newer hpcscale; upgrade this component");
        }
        return switch (type) {
            case JOBS -> decodeJob(fields);
            case VMS -> decodeVm(fields);
            case DRAINS -> decodeDrain(fields);
            case AGENTS -> decodeAgent(fields);
            case POWER -> decodePower(fields);
            case NOTICES -> decodeNotice(fields);
            case HEALTH -> decodeHealth(fields);
            case WAIT_REASONS -> decodeWaitReasons(fields);
            case MARKER -> new ChangeMarkerDocument(fields.requiredText(Fields.ID),
                    fields.requiredInstant(Fields.CHANGED_AT));
            default -> formatOf(type).orElseThrow(() -> fields.fail(Fields.TYPE, "is '" + typeName + "', a document "
                    + "of another program, which this one cannot read")).decode(fields);
        };
    }

    /** The format a module brings for its own documents of this type. */
    private static Optional<DocumentFormat<?>> formatOf(DocumentType type) {
        return Optional.ofNullable(OWN_FORMATS.get(type));
    }

    private static <T extends ClusterLoadDocument> void encodeOwn(DocumentFormat<T> format,
            ClusterLoadDocument document, ObjectNode json) {
        format.encode(format.documentClass().cast(document), json);
    }

    private static Map<DocumentType, DocumentFormat<?>> installedFormats() {
        Map<DocumentType, DocumentFormat<?>> formats = new EnumMap<>(DocumentType.class);
        for (DocumentFormat<?> format : ServiceLoader.load(DocumentFormat.class)) {
            DocumentFormat<?> other = formats.put(format.type(), format);
            if (other != null) {
                throw new IllegalStateException("two formats for " + format.type().wireName() + " documents: "
                        + other.getClass().getName() + " and " + format.getClass().getName());
            }
        }
        return formats;
    }

    public <T extends ClusterLoadDocument> T decode(JsonNode json, Class<T> expected) {
        ClusterLoadDocument document = decode(json);
        if (!expected.isInstance(document)) {
            throw new DocumentFormatException(document.type().wireName() + " document '" + document.id()
                    + "' is not a " + expected.getSimpleName());
        }
        return expected.cast(document);
    }

    public String toJson(JsonNode json) {
        return json.toString();
    }

    public ObjectNode parse(String text) {
        try {
            JsonNode node = MAPPER.readTree(text);
            if (!(node instanceof ObjectNode object)) {
                throw new DocumentFormatException("a stored document is not a JSON object");
            }
            return object;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new DocumentFormatException("a stored document is not valid JSON: " + e.getOriginalMessage());
        }
    }

    private static void encodeJob(JobDocument job, ObjectNode json) {
        json.put(Fields.SCHEDULER_ID, job.schedulerId());
        json.put(Fields.QUEUE_NAME, job.queueName());
        json.put(Fields.STATUS, job.status().name());
        json.put(Fields.NODES, job.nodes());
        ArrayNode chunks = json.putArray(Fields.CHUNKS);
        for (Chunk chunk : job.chunks()) {
            ObjectNode c = chunks.addObject();
            c.put(Fields.COUNT, chunk.count());
            c.put(Fields.CPUS, chunk.cpus());
            c.put(Fields.MEMORY_MB, chunk.memoryMb());
            c.put(Fields.GPUS, chunk.gpus());
        }
        json.put(Fields.PLACEMENT, job.placement().name());
        json.put(Fields.EXCLUSIVE, job.exclusive());
        FieldWriter.putInstant(json, Fields.SUBMITTED_AT, job.submittedAt());
        json.put(Fields.AGENT, job.agent());
        json.put(Fields.WAITING_FOR, job.waitingFor());
        // JSON text rather than nested JSON: the scaler reads it as the text its cache of read constraints is keyed
        // by, and writing a parsed tree back to text for every job of every read showed in the planner's benchmark.
        json.put(Fields.CONSTRAINTS, job.constraints());
        Duration limit = job.times().limit();
        if (limit == null) {
            json.putNull(Fields.TIME_LIMIT_SECONDS);
        } else {
            json.put(Fields.TIME_LIMIT_SECONDS, limit.toSeconds());
        }
        FieldWriter.putInstant(json, Fields.STARTED_AT, job.times().startedAt());
        FieldWriter.putInstant(json, Fields.ENDS_AT, job.times().endsAt());
    }

    private static JobDocument decodeJob(FieldReader fields) {
        List<Chunk> chunks = new ArrayList<>();
        JsonNode chunkArray = fields.node(Fields.CHUNKS);
        if (chunkArray != null && chunkArray.isArray()) {
            for (JsonNode c : chunkArray) {
                FieldReader chunk = new FieldReader(c);
                try {
                    chunks.add(new Chunk(chunk.intNumber(Fields.COUNT, 1), chunk.intNumber(Fields.CPUS, 0),
                            chunk.number(Fields.MEMORY_MB, 0), chunk.intNumber(Fields.GPUS, 0)));
                } catch (IllegalArgumentException e) {
                    throw fields.fail(Fields.CHUNKS, "holds an invalid chunk: " + e.getMessage());
                }
            }
        }
        return new JobDocument(
                fields.requiredText(Fields.ID),
                fields.requiredText(Fields.POOL_NAME),
                fields.requiredText(Fields.SCHEDULER_ID),
                fields.optionalText(Fields.QUEUE_NAME),
                jobState(fields.optionalText(Fields.STATUS)),
                fields.intNumber(Fields.NODES, 1),
                chunks,
                placement(fields.optionalText(Fields.PLACEMENT)),
                fields.bool(Fields.EXCLUSIVE),
                fields.instant(Fields.SUBMITTED_AT),
                fields.optionalText(Fields.AGENT),
                fields.optionalText(Fields.WAITING_FOR),
                fields.optionalText(Fields.CONSTRAINTS),
                jobTimes(fields));
    }

    private static JobTimes jobTimes(FieldReader fields) {
        JsonNode limit = fields.node(Fields.TIME_LIMIT_SECONDS);
        Duration limitTime = null;
        if (limit != null && !limit.isNull()) {
            long seconds = fields.number(Fields.TIME_LIMIT_SECONDS, 0);
            if (seconds < 0) {
                throw fields.fail(Fields.TIME_LIMIT_SECONDS, "is negative: " + seconds);
            }
            limitTime = Duration.ofSeconds(seconds);
        }
        return new JobTimes(limitTime, fields.instant(Fields.STARTED_AT), fields.instant(Fields.ENDS_AT));
    }

    private static void encodeVm(VmDocument vm, ObjectNode json) {
        json.put(Fields.NAME, vm.name());
        json.put(Fields.JOB_STATUS, vm.jobStatus().name());
        json.put(Fields.SCHEDULER_STATE, vm.schedulerState());
        json.put(Fields.OFFLINE, vm.offline());
        json.put(Fields.OFFLINE_BY_HPCSCALE, vm.offlineByHpcscale());
        json.put(Fields.DOWN, vm.down());
        json.put(Fields.EXCLUSIVE, vm.exclusive());
        json.put(Fields.CPUS_TOTAL, vm.cpusTotal());
        json.put(Fields.CPUS_USED, vm.cpusUsed());
        json.put(Fields.MEMORY_MB, vm.memoryMb());
        json.put(Fields.MEMORY_MB_USED, vm.memoryMbUsed());
        json.put(Fields.GPUS, vm.gpus());
        json.put(Fields.GPUS_USED, vm.gpusUsed());
        ArrayNode jobIds = json.putArray(Fields.JOB_IDS);
        vm.jobIds().forEach(jobIds::add);
        FieldWriter.putInstant(json, Fields.LAST_BUSY_AT, vm.lastBusyAt());
        FieldWriter.putInstant(json, Fields.SEEN_AT, vm.seenAt());
        FieldWriter.putInstant(json, Fields.DRAIN_REQUESTED_AT, vm.drainRequestedAt());
        json.put(Fields.AGENT, vm.agent());
    }

    private static VmDocument decodeVm(FieldReader fields) {
        return new VmDocument(
                fields.requiredText(Fields.ID),
                fields.requiredText(Fields.POOL_NAME),
                fields.requiredText(Fields.NAME),
                fields.enumValue(Fields.JOB_STATUS, NodeJobStatus.class),
                fields.optionalText(Fields.SCHEDULER_STATE),
                fields.bool(Fields.OFFLINE),
                fields.bool(Fields.OFFLINE_BY_HPCSCALE),
                fields.bool(Fields.DOWN),
                fields.bool(Fields.EXCLUSIVE),
                fields.intNumber(Fields.CPUS_TOTAL, 0),
                fields.intNumber(Fields.CPUS_USED, 0),
                fields.number(Fields.MEMORY_MB, 0),
                fields.number(Fields.MEMORY_MB_USED, 0),
                fields.intNumber(Fields.GPUS, 0),
                fields.intNumber(Fields.GPUS_USED, 0),
                fields.textList(Fields.JOB_IDS),
                fields.instant(Fields.LAST_BUSY_AT),
                fields.instant(Fields.SEEN_AT),
                fields.instant(Fields.DRAIN_REQUESTED_AT),
                fields.optionalText(Fields.AGENT));
    }

    private static void encodeDrain(DrainDocument drain, ObjectNode json) {
        json.put(Fields.NAME, drain.name());
        json.put(Fields.REASON, drain.reason());
        FieldWriter.putInstant(json, Fields.REQUESTED_AT, drain.requestedAt());
    }

    private static DrainDocument decodeDrain(FieldReader fields) {
        return new DrainDocument(
                fields.requiredText(Fields.ID),
                fields.requiredText(Fields.POOL_NAME),
                fields.requiredText(Fields.NAME),
                fields.optionalText(Fields.REASON),
                fields.requiredInstant(Fields.REQUESTED_AT));
    }

    private static void encodeAgent(AgentDocument agent, ObjectNode json) {
        json.put(Fields.SCHEDULER, agent.scheduler());
        json.put(Fields.HOST, agent.host());
        json.put(Fields.VERSION, agent.version());
        FieldWriter.putInstant(json, Fields.LAST_CYCLE_AT, agent.lastCycleAt());
        json.put(Fields.CYCLE_MILLIS, agent.cycleMillis());
        ArrayNode pools = json.putArray(Fields.POOLS);
        agent.pools().forEach(pools::add);
        json.put(Fields.LAST_ERROR, agent.lastError());
        FieldWriter.putInstant(json, Fields.LAST_SUCCESS_AT, agent.lastSuccessAt());
        FieldWriter.putInstant(json, Fields.LAST_CHANGE_AT, agent.lastChangeAt());
    }

    private static AgentDocument decodeAgent(FieldReader fields) {
        return new AgentDocument(
                fields.requiredText(Fields.ID),
                fields.optionalText(Fields.SCHEDULER),
                fields.optionalText(Fields.HOST),
                fields.optionalText(Fields.VERSION),
                fields.requiredInstant(Fields.LAST_CYCLE_AT),
                fields.number(Fields.CYCLE_MILLIS, 0),
                fields.textList(Fields.POOLS),
                fields.optionalText(Fields.LAST_ERROR),
                fields.instant(Fields.LAST_SUCCESS_AT),
                fields.instant(Fields.LAST_CHANGE_AT));
    }

    private static void encodePower(PowerDocument power, ObjectNode json) {
        json.put(Fields.NAME, power.name());
        json.put(Fields.ACTION, power.action().name());
        FieldWriter.putInstant(json, Fields.REQUESTED_AT, power.requestedAt());
    }

    private static PowerDocument decodePower(FieldReader fields) {
        return new PowerDocument(
                fields.requiredText(Fields.ID),
                fields.requiredText(Fields.POOL_NAME),
                fields.requiredText(Fields.NAME),
                fields.enumValue(Fields.ACTION, PowerDocument.Action.class),
                fields.requiredInstant(Fields.REQUESTED_AT));
    }

    private static void encodeNotice(NoticeDocument notice, ObjectNode json) {
        json.put(Fields.NAME, notice.name());
        json.put(Fields.EVENT_ID, notice.eventId());
        json.put(Fields.EVENT_TYPE, notice.rawType());
        FieldWriter.putInstant(json, Fields.NOT_BEFORE, notice.notBefore());
        json.put(Fields.DESCRIPTION, notice.description());
        FieldWriter.putInstant(json, Fields.RECEIVED_AT, notice.receivedAt());
        FieldWriter.putInstant(json, Fields.READY_AT, notice.readyAt());
        json.put(Fields.TTL, NoticeDocument.KEPT.toSeconds());
    }

    private static NoticeDocument decodeNotice(FieldReader fields) {
        String rawType = fields.requiredText(Fields.EVENT_TYPE);
        return new NoticeDocument(
                fields.requiredText(Fields.ID),
                fields.requiredText(Fields.NAME),
                fields.requiredText(Fields.EVENT_ID),
                NoticeDocument.Kind.of(rawType),
                rawType,
                fields.instant(Fields.NOT_BEFORE),
                fields.optionalText(Fields.DESCRIPTION),
                fields.requiredInstant(Fields.RECEIVED_AT),
                fields.instant(Fields.READY_AT));
    }

    private static void encodeHealth(HealthDocument health, ObjectNode json) {
        json.put(Fields.NAME, health.name());
        json.put(Fields.STATE, health.state().name());
        json.put(Fields.OUTPUT, health.output());
        FieldWriter.putInstant(json, Fields.CHECKED_AT, health.checkedAt());
        FieldWriter.putInstant(json, Fields.HELD_AT, health.heldAt());
    }

    private static HealthDocument decodeHealth(FieldReader fields) {
        return new HealthDocument(
                fields.requiredText(Fields.ID),
                fields.requiredText(Fields.NAME),
                fields.enumValue(Fields.STATE, HealthDocument.State.class),
                fields.optionalText(Fields.OUTPUT),
                fields.requiredInstant(Fields.CHECKED_AT),
                fields.instant(Fields.HELD_AT));
    }

    private static void encodeWaitReasons(WaitReasonsDocument reasons, ObjectNode json) {
        json.put(Fields.REASON, reasons.reason());
        ObjectNode jobs = json.putObject(Fields.JOB_REASONS);
        new TreeMap<>(reasons.jobs()).forEach(jobs::put);
    }

    private static WaitReasonsDocument decodeWaitReasons(FieldReader fields) {
        Map<String, String> jobs = new TreeMap<>();
        JsonNode stored = fields.node(Fields.JOB_REASONS);
        if (stored != null && !stored.isNull()) {
            if (!stored.isObject()) {
                throw fields.fail(Fields.JOB_REASONS, "is not an object of job ids and reasons");
            }
            stored.fields().forEachRemaining(job -> {
                if (!job.getValue().isTextual()) {
                    throw fields.fail(Fields.JOB_REASONS, "names job " + job.getKey() + " with a reason that is not "
                            + "text");
                }
                jobs.put(job.getKey(), job.getValue().asText());
            });
        }
        return new WaitReasonsDocument(fields.poolName(), fields.optionalText(Fields.REASON), jobs);
    }

    private static JobState jobState(String text) {
        if (text == null) {
            return JobState.Unknown;
        }
        return Arrays.stream(JobState.values()).filter(s -> s.name().equals(text)).findFirst()
                .orElse(JobState.Unknown);
    }

    private static Placement placement(String text) {
        if (text == null) {
            return Placement.free;
        }
        return Arrays.stream(Placement.values()).filter(p -> p.name().equals(text)).findFirst()
                .orElse(Placement.free);
    }
}
