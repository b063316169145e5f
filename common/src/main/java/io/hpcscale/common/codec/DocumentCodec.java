package io.hpcscale.common.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.model.AgentDocument;
import io.hpcscale.common.model.Chunk;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.EventDocument;
import io.hpcscale.common.model.GrowthAsked;
import io.hpcscale.common.model.InstanceRecord;
import io.hpcscale.common.model.JobDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.LastAction;
import io.hpcscale.common.model.LeaseDocument;
import io.hpcscale.common.model.NodeJobStatus;
import io.hpcscale.common.model.Placement;
import io.hpcscale.common.model.PoolTargetDocument;
import io.hpcscale.common.model.PowerDocument;
import io.hpcscale.common.model.RemovalRecord;
import io.hpcscale.common.model.ScalerStateDocument;
import io.hpcscale.common.model.StopKind;
import io.hpcscale.common.model.UsageDocument;
import io.hpcscale.common.model.VmDocument;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Converts typed ClusterLoad documents to and from their JSON form (schema version 1). */
public final class DocumentCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

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
        } else if (document instanceof EventDocument event) {
            encodeEvent(event, json);
        } else if (document instanceof PowerDocument power) {
            encodePower(power, json);
        } else if (document instanceof LeaseDocument lease) {
            encodeLease(lease, json);
        } else if (document instanceof ScalerStateDocument state) {
            encodeState(state, json);
        } else if (document instanceof ChangeMarkerDocument marker) {
            putInstant(json, Fields.CHANGED_AT, marker.changedAt());
        } else if (document instanceof UsageDocument usage) {
            encodeUsage(usage, json);
        } else if (document instanceof PoolTargetDocument target) {
            json.put(Fields.TARGET, target.target());
            putInstant(json, Fields.SET_AT, target.setAt());
            json.put(Fields.SET_BY, target.setBy());
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
            case EVENTS -> decodeEvent(fields);
            case POWER -> decodePower(fields);
            case LEASE -> decodeLease(fields);
            case SCALER_STATE -> decodeState(fields);
            case MARKER -> new ChangeMarkerDocument(fields.requiredText(Fields.ID),
                    fields.requiredInstant(Fields.CHANGED_AT));
            case TARGET -> decodeTarget(fields);
            case USAGE -> decodeUsage(fields);
        };
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
        putInstant(json, Fields.SUBMITTED_AT, job.submittedAt());
        json.put(Fields.AGENT, job.agent());
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
                fields.optionalText(Fields.AGENT));
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
        putInstant(json, Fields.LAST_BUSY_AT, vm.lastBusyAt());
        putInstant(json, Fields.SEEN_AT, vm.seenAt());
        putInstant(json, Fields.DRAIN_REQUESTED_AT, vm.drainRequestedAt());
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
        putInstant(json, Fields.REQUESTED_AT, drain.requestedAt());
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
        putInstant(json, Fields.LAST_CYCLE_AT, agent.lastCycleAt());
        json.put(Fields.CYCLE_MILLIS, agent.cycleMillis());
        ArrayNode pools = json.putArray(Fields.POOLS);
        agent.pools().forEach(pools::add);
        json.put(Fields.LAST_ERROR, agent.lastError());
        putInstant(json, Fields.LAST_SUCCESS_AT, agent.lastSuccessAt());
        putInstant(json, Fields.LAST_CHANGE_AT, agent.lastChangeAt());
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

    private static void encodeEvent(EventDocument event, ObjectNode json) {
        putInstant(json, Fields.AT, event.at());
        json.put(Fields.ACTION, event.action());
        ArrayNode instances = json.putArray(Fields.INSTANCES);
        event.instances().forEach(instances::add);
        json.put(Fields.REASON, event.reason());
        json.put(Fields.OUTCOME, event.outcome());
        json.put(Fields.TTL, event.ttlSeconds());
    }

    private static EventDocument decodeEvent(FieldReader fields) {
        return new EventDocument(
                fields.requiredText(Fields.ID),
                fields.requiredText(Fields.POOL_NAME),
                fields.requiredInstant(Fields.AT),
                fields.requiredText(Fields.ACTION),
                fields.textList(Fields.INSTANCES),
                fields.optionalText(Fields.REASON),
                fields.optionalText(Fields.OUTCOME),
                fields.number(Fields.TTL, 0));
    }

    private static void encodeUsage(UsageDocument usage, ObjectNode json) {
        json.put(Fields.DAY, usage.day().toString());
        json.put(Fields.INSTANCE_SECONDS, usage.instanceSeconds());
        json.put(Fields.BUSY_SECONDS, usage.busySeconds());
        putInstant(json, Fields.LAST_SAMPLE_AT, usage.lastSampleAt());
        json.put(Fields.LAST_ACTIVE, usage.lastActive());
        json.put(Fields.LAST_BUSY, usage.lastBusy());
        json.put(Fields.TTL, UsageDocument.KEPT_FOR.toSeconds());
    }

    private static UsageDocument decodeUsage(FieldReader fields) {
        String day = fields.requiredText(Fields.DAY);
        LocalDate parsed;
        try {
            parsed = LocalDate.parse(day);
        } catch (DateTimeParseException e) {
            throw fields.fail(Fields.DAY, "is not a date: '" + day + "'");
        }
        return new UsageDocument(
                fields.requiredText(Fields.POOL_NAME),
                parsed,
                fields.decimal(Fields.INSTANCE_SECONDS),
                fields.decimal(Fields.BUSY_SECONDS),
                fields.requiredInstant(Fields.LAST_SAMPLE_AT),
                fields.intNumber(Fields.LAST_ACTIVE, 0),
                fields.intNumber(Fields.LAST_BUSY, 0));
    }

    private static void encodePower(PowerDocument power, ObjectNode json) {
        json.put(Fields.NAME, power.name());
        json.put(Fields.ACTION, power.action().name());
        putInstant(json, Fields.REQUESTED_AT, power.requestedAt());
    }

    private static PowerDocument decodePower(FieldReader fields) {
        return new PowerDocument(
                fields.requiredText(Fields.ID),
                fields.requiredText(Fields.POOL_NAME),
                fields.requiredText(Fields.NAME),
                fields.enumValue(Fields.ACTION, PowerDocument.Action.class),
                fields.requiredInstant(Fields.REQUESTED_AT));
    }

    private static PoolTargetDocument decodeTarget(FieldReader fields) {
        int target = fields.intNumber(Fields.TARGET, -1);
        if (target < 0) {
            throw fields.fail(Fields.TARGET, target == -1 ? "is missing" : "is negative: " + target);
        }
        return new PoolTargetDocument(fields.requiredText(Fields.POOL_NAME), target, fields.instant(Fields.SET_AT),
                fields.optionalText(Fields.SET_BY));
    }

    private static void encodeLease(LeaseDocument lease, ObjectNode json) {
        json.put(Fields.HOLDER, lease.holder());
        json.put(Fields.HOST, lease.host());
        json.put(Fields.PID, lease.pid());
        json.put(Fields.BOOT_ID, lease.bootId());
        putInstant(json, Fields.RENEWED_AT, lease.renewedAt());
        putInstant(json, Fields.EXPIRES_AT, lease.expiresAt());
    }

    private static LeaseDocument decodeLease(FieldReader fields) {
        String holder = fields.optionalText(Fields.HOLDER);
        return new LeaseDocument(holder == null ? "" : holder, fields.optionalText(Fields.HOST),
                fields.number(Fields.PID, 0), fields.optionalText(Fields.BOOT_ID), fields.instant(Fields.RENEWED_AT),
                fields.requiredInstant(Fields.EXPIRES_AT));
    }

    private static void encodeState(ScalerStateDocument state, ObjectNode json) {
        ObjectNode instances = json.putObject(Fields.INSTANCES);
        state.instances().forEach((id, record) -> encodeInstanceRecord(record, instances.putObject(id)));
        json.put(Fields.CONSECUTIVE_BOOT_FAILURES, state.consecutiveBootFailures());
        putInstant(json, Fields.BACKOFF_UNTIL, state.backoffUntil());
        json.put(Fields.BACKOFF_REASON, state.backoffReason());
        putInstant(json, Fields.THROTTLED_UNTIL, state.throttledUntil());
        json.put(Fields.THROTTLE_REASON, state.throttleReason());
        putInstant(json, Fields.GROWN_AT, state.grownAt());
        json.put(Fields.EVICTIONS, state.evictions());
        ArrayNode rounds = json.putArray(Fields.EVICTION_ROUNDS);
        state.evictionRounds().forEach(at -> rounds.add(at.toString()));
        ObjectNode sealed = json.putObject(Fields.SEALED_SCALE_SETS);
        state.sealedScaleSets().forEach(sealed::put);
        ObjectNode growing = json.putObject(Fields.GROWING);
        state.growing().forEach((name, asked) -> {
            ObjectNode g = growing.putObject(name);
            putInstant(g, Fields.AT, asked.at());
            g.put(Fields.CAPACITY, asked.capacity());
        });
        ObjectNode removals = json.putObject(Fields.REMOVALS);
        state.removals().forEach((id, removal) -> {
            ObjectNode r = removals.putObject(id);
            putInstant(r, Fields.AT, removal.at());
            r.put(Fields.REQUESTED_BY, removal.requestedBy());
            r.put(Fields.LOWERED, removal.lowered());
            putInteger(r, Fields.COUNT_FROM, removal.countFrom());
            putInteger(r, Fields.COUNT_TO, removal.countTo());
        });
        if (state.pendingCreate() == null) {
            json.putNull(Fields.PENDING_CREATE);
        } else {
            ObjectNode pending = json.putObject(Fields.PENDING_CREATE);
            pending.put(Fields.COUNT, state.pendingCreate().count());
            putInstant(pending, Fields.AT, state.pendingCreate().at());
            pending.put(Fields.REASON, state.pendingCreate().reason());
        }
        if (state.lastAction() == null) {
            json.putNull(Fields.LAST_ACTION);
        } else {
            ObjectNode last = json.putObject(Fields.LAST_ACTION);
            LastAction action = state.lastAction();
            putInstant(last, Fields.AT, action.at());
            last.put(Fields.ACTION, action.action());
            ArrayNode ids = last.putArray(Fields.INSTANCES);
            action.instances().forEach(ids::add);
            last.put(Fields.REASON, action.reason());
            last.put(Fields.OUTCOME, action.outcome());
        }
    }

    private static void encodeInstanceRecord(InstanceRecord record, ObjectNode json) {
        putInstant(json, Fields.STARTED_AT, record.startedAt());
        json.put(Fields.START_REASON, record.startReason());
        json.put(Fields.BOOTING, record.booting());
        putInstant(json, Fields.STOPPED_AT, record.stoppedAt());
        json.put(Fields.STOP_KIND, record.stopKind() == null ? null : record.stopKind().name());
        json.put(Fields.STOP_REASON, record.stopReason());
        if (record.pending() == null) {
            json.putNull(Fields.PENDING);
        } else {
            ObjectNode pending = json.putObject(Fields.PENDING);
            pending.put(Fields.ACTION, record.pending().start() ? "start" : "stop");
            pending.put(Fields.STOP_KIND, record.pending().start() ? null : record.pending().stopKind().name());
            putInstant(pending, Fields.AT, record.pending().at());
            pending.put(Fields.REASON, record.pending().reason());
        }
    }

    private static ScalerStateDocument decodeState(FieldReader fields) {
        SortedMap<String, InstanceRecord> instances = new TreeMap<>();
        JsonNode byId = fields.node(Fields.INSTANCES);
        if (byId != null && !byId.isNull()) {
            if (!byId.isObject()) {
                throw fields.fail(Fields.INSTANCES, "is not an object of instance records by instance id");
            }
            Iterator<Map.Entry<String, JsonNode>> entries = byId.fields();
            while (entries.hasNext()) {
                Map.Entry<String, JsonNode> entry = entries.next();
                instances.put(entry.getKey(), decodeInstanceRecord(fields, entry.getKey(), entry.getValue()));
            }
        }
        ScalerStateDocument.PendingCreate pendingCreate = null;
        JsonNode create = fields.node(Fields.PENDING_CREATE);
        if (create != null && !create.isNull()) {
            FieldReader pending = fields.nested(Fields.PENDING_CREATE, create);
            pendingCreate = new ScalerStateDocument.PendingCreate(pending.intNumber(Fields.COUNT, 0),
                    pending.requiredInstant(Fields.AT), pending.optionalText(Fields.REASON));
        }
        LastAction lastAction = null;
        JsonNode last = fields.node(Fields.LAST_ACTION);
        if (last != null && !last.isNull()) {
            FieldReader action = fields.nested(Fields.LAST_ACTION, last);
            lastAction = new LastAction(action.requiredInstant(Fields.AT), action.requiredText(Fields.ACTION),
                    action.textList(Fields.INSTANCES), action.optionalText(Fields.REASON),
                    action.optionalText(Fields.OUTCOME));
        }
        return new ScalerStateDocument(fields.requiredText(Fields.POOL_NAME), instances,
                fields.intNumber(Fields.CONSECUTIVE_BOOT_FAILURES, 0), fields.instant(Fields.BACKOFF_UNTIL),
                fields.optionalText(Fields.BACKOFF_REASON), fields.instant(Fields.THROTTLED_UNTIL),
                fields.optionalText(Fields.THROTTLE_REASON), pendingCreate,
                lastAction, fields.number(Fields.EVICTIONS, 0), fields.instantList(Fields.EVICTION_ROUNDS),
                decodeRemovals(fields), decodeSealed(fields), fields.instant(Fields.GROWN_AT), decodeGrowing(fields));
    }

    private static SortedMap<String, RemovalRecord> decodeRemovals(FieldReader state) {
        SortedMap<String, RemovalRecord> removals = new TreeMap<>();
        JsonNode byId = state.node(Fields.REMOVALS);
        if (byId == null || byId.isNull()) {
            return removals;
        }
        if (!byId.isObject()) {
            throw state.fail(Fields.REMOVALS, "is not an object of removals by instance id");
        }
        Iterator<Map.Entry<String, JsonNode>> entries = byId.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            FieldReader r = state.nested(Fields.REMOVALS + "." + entry.getKey(), entry.getValue());
            removals.put(entry.getKey(), new RemovalRecord(r.requiredInstant(Fields.AT),
                    r.optionalText(Fields.REQUESTED_BY), r.bool(Fields.LOWERED), optionalInteger(r, Fields.COUNT_FROM),
                    optionalInteger(r, Fields.COUNT_TO)));
        }
        return removals;
    }

    private static SortedMap<String, String> decodeSealed(FieldReader state) {
        SortedMap<String, String> sealed = new TreeMap<>();
        JsonNode byName = state.node(Fields.SEALED_SCALE_SETS);
        if (byName == null || byName.isNull()) {
            return sealed;
        }
        if (!byName.isObject()) {
            throw state.fail(Fields.SEALED_SCALE_SETS, "is not an object of sealed scale sets by name");
        }
        byName.fields().forEachRemaining(e -> sealed.put(e.getKey(), e.getValue().asText()));
        return sealed;
    }

    private static SortedMap<String, GrowthAsked> decodeGrowing(FieldReader state) {
        SortedMap<String, GrowthAsked> growing = new TreeMap<>();
        JsonNode byName = state.node(Fields.GROWING);
        if (byName == null || byName.isNull()) {
            return growing;
        }
        if (!byName.isObject()) {
            throw state.fail(Fields.GROWING, "is not an object of scale sets asked to grow, by name");
        }
        Iterator<Map.Entry<String, JsonNode>> entries = byName.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            FieldReader g = state.nested(Fields.GROWING + "." + entry.getKey(), entry.getValue());
            growing.put(entry.getKey(), new GrowthAsked(g.requiredInstant(Fields.AT), g.intNumber(Fields.CAPACITY, 0)));
        }
        return growing;
    }

    private static void putInteger(ObjectNode json, String field, Integer value) {
        if (value == null) {
            json.putNull(field);
        } else {
            json.put(field, value);
        }
    }

    private static Integer optionalInteger(FieldReader fields, String field) {
        long value = fields.number(field, Long.MIN_VALUE);
        return value == Long.MIN_VALUE ? null : fields.intNumber(field, 0);
    }

    private static InstanceRecord decodeInstanceRecord(FieldReader state, String id, JsonNode json) {
        FieldReader fields = state.nested(Fields.INSTANCES + "." + id, json);
        InstanceRecord.Pending pending = null;
        JsonNode pendingJson = fields.node(Fields.PENDING);
        if (pendingJson != null && !pendingJson.isNull()) {
            FieldReader p = state.nested(Fields.INSTANCES + "." + id + "." + Fields.PENDING, pendingJson);
            String action = p.requiredText(Fields.ACTION);
            StopKind kind = switch (action) {
                case "start" -> null;
                case "stop" -> p.enumValue(Fields.STOP_KIND, StopKind.class);
                default -> throw p.fail(Fields.ACTION, "has an unknown value '" + action + "'");
            };
            pending = new InstanceRecord.Pending(kind, p.requiredInstant(Fields.AT), p.optionalText(Fields.REASON));
        }
        String stopKind = fields.optionalText(Fields.STOP_KIND);
        return new InstanceRecord(fields.instant(Fields.STARTED_AT), fields.optionalText(Fields.START_REASON),
                fields.bool(Fields.BOOTING), fields.instant(Fields.STOPPED_AT),
                stopKind == null ? null : fields.enumValue(Fields.STOP_KIND, StopKind.class),
                fields.optionalText(Fields.STOP_REASON), pending);
    }

    private static void putInstant(ObjectNode json, String field, Instant value) {
        if (value == null) {
            json.putNull(field);
        } else {
            json.put(field, value.toString());
        }
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
