package io.hpcscale.scaler.documents;

import static io.hpcscale.common.codec.FieldWriter.putInstant;
import static io.hpcscale.common.codec.FieldWriter.putInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.codec.DocumentFormat;
import io.hpcscale.common.codec.FieldReader;
import io.hpcscale.common.model.DocumentType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** What the scaler remembers of a pool between cycles. */
public final class ScalerStateFormat implements DocumentFormat<ScalerStateDocument> {

    @Override
    public DocumentType type() {
        return DocumentType.SCALER_STATE;
    }

    @Override
    public Class<ScalerStateDocument> documentClass() {
        return ScalerStateDocument.class;
    }


    @Override
    public void encode(ScalerStateDocument state, ObjectNode json) {
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
        ObjectNode gangs = json.putObject(Fields.GANGS);
        state.gangs().forEach((job, wait) -> {
            ObjectNode g = gangs.putObject(job);
            putInstant(g, Fields.AT, wait.askedAt());
            g.put(Fields.NODES, wait.nodes());
            putInstant(g, Fields.GIVEN_BACK_AT, wait.givenBackAt());
        });
        BootHealth health = state.bootHealth();
        if (!health.equals(BootHealth.NONE)) {
            ObjectNode h = json.putObject(Fields.BOOT_HEALTH);
            h.put(Fields.FAILED_IN_A_ROW, health.failedInARow());
            ArrayNode recent = h.putArray(Fields.RECENT_FAILURES);
            health.recentFailures().forEach(recent::add);
            putInstant(h, Fields.PROTECTED_SINCE, health.protectedSince());
        }
        IdleLearning learning = state.idleLearning();
        if (!learning.equals(IdleLearning.NONE)) {
            ObjectNode l = json.putObject(Fields.IDLE_LEARNING);
            putInstant(l, Fields.LAST_ARRIVAL_AT, learning.lastArrivalAt());
            ArrayNode gaps = l.putArray(Fields.ARRIVAL_GAPS);
            learning.arrivalGaps().forEach(gaps::add);
            ArrayNode boots = l.putArray(Fields.BOOT_SECONDS);
            learning.bootSeconds().forEach(boots::add);
        }
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

    @Override
    public ScalerStateDocument decode(FieldReader fields) {
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
        return new ScalerStateDocument(fields.poolName(), instances,
                fields.intNumber(Fields.CONSECUTIVE_BOOT_FAILURES, 0), fields.instant(Fields.BACKOFF_UNTIL),
                fields.optionalText(Fields.BACKOFF_REASON), fields.instant(Fields.THROTTLED_UNTIL),
                fields.optionalText(Fields.THROTTLE_REASON), pendingCreate,
                lastAction, fields.number(Fields.EVICTIONS, 0), fields.instantList(Fields.EVICTION_ROUNDS),
                decodeRemovals(fields), decodeSealed(fields), fields.instant(Fields.GROWN_AT), decodeGrowing(fields),
                decodeGangs(fields), decodeBootHealth(fields), decodeIdleLearning(fields));
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
                    r.optionalText(Fields.REQUESTED_BY), r.bool(Fields.LOWERED), r.optionalInteger(Fields.COUNT_FROM),
                    r.optionalInteger(Fields.COUNT_TO)));
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

    private static BootHealth decodeBootHealth(FieldReader state) {
        JsonNode json = state.node(Fields.BOOT_HEALTH);
        if (json == null || json.isNull()) {
            return BootHealth.NONE;
        }
        if (!json.isObject()) {
            throw state.fail(Fields.BOOT_HEALTH, "is not an object of how the pool's boots have gone");
        }
        FieldReader h = state.nested(Fields.BOOT_HEALTH, json);
        return new BootHealth(h.intNumber(Fields.FAILED_IN_A_ROW, 0), h.textList(Fields.RECENT_FAILURES),
                h.instant(Fields.PROTECTED_SINCE));
    }

    private static IdleLearning decodeIdleLearning(FieldReader state) {
        JsonNode json = state.node(Fields.IDLE_LEARNING);
        if (json == null || json.isNull()) {
            return IdleLearning.NONE;
        }
        if (!json.isObject()) {
            throw state.fail(Fields.IDLE_LEARNING, "is not an object of the pool's arrivals and boot times");
        }
        FieldReader l = state.nested(Fields.IDLE_LEARNING, json);
        return new IdleLearning(l.instant(Fields.LAST_ARRIVAL_AT), seconds(l, Fields.ARRIVAL_GAPS),
                seconds(l, Fields.BOOT_SECONDS));
    }

    private static List<Long> seconds(FieldReader reader, String field) {
        List<Long> values = new ArrayList<>();
        for (String text : reader.textList(field)) {
            try {
                long value = Long.parseLong(text);
                if (value < 0) {
                    throw reader.fail(field, "holds a negative number of seconds: " + value);
                }
                values.add(value);
            } catch (NumberFormatException e) {
                throw reader.fail(field, "holds something that is not a whole number of seconds: '" + text + "'");
            }
        }
        return values;
    }

    private static SortedMap<String, GangWait> decodeGangs(FieldReader state) {
        SortedMap<String, GangWait> gangs = new TreeMap<>();
        JsonNode byJob = state.node(Fields.GANGS);
        if (byJob == null || byJob.isNull()) {
            return gangs;
        }
        if (!byJob.isObject()) {
            throw state.fail(Fields.GANGS, "is not an object of gang jobs waiting for their nodes, by job id");
        }
        Iterator<Map.Entry<String, JsonNode>> entries = byJob.fields();
        while (entries.hasNext()) {
            Map.Entry<String, JsonNode> entry = entries.next();
            FieldReader g = state.nested(Fields.GANGS + "." + entry.getKey(), entry.getValue());
            gangs.put(entry.getKey(), new GangWait(g.requiredInstant(Fields.AT), g.intNumber(Fields.NODES, 0),
                    g.instant(Fields.GIVEN_BACK_AT)));
        }
        return gangs;
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
}
