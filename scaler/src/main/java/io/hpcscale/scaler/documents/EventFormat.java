package io.hpcscale.scaler.documents;

import static io.hpcscale.common.codec.FieldWriter.putInstant;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.codec.DocumentFormat;
import io.hpcscale.common.codec.FieldReader;
import io.hpcscale.common.model.DocumentType;

/** The scaler's events: one document per action or refusal, kept for their TTL. */
public final class EventFormat implements DocumentFormat<EventDocument> {

    @Override
    public DocumentType type() {
        return DocumentType.EVENTS;
    }

    @Override
    public Class<EventDocument> documentClass() {
        return EventDocument.class;
    }


    @Override
    public void encode(EventDocument event, ObjectNode json) {
        putInstant(json, Fields.AT, event.at());
        json.put(Fields.ACTION, event.action());
        ArrayNode instances = json.putArray(Fields.INSTANCES);
        event.instances().forEach(instances::add);
        json.put(Fields.REASON, event.reason());
        json.put(Fields.OUTCOME, event.outcome());
        json.put(Fields.TTL, event.ttlSeconds());
    }

    @Override
    public EventDocument decode(FieldReader fields) {
        return new EventDocument(
                fields.id(),
                fields.poolName(),
                fields.requiredInstant(Fields.AT),
                fields.requiredText(Fields.ACTION),
                fields.textList(Fields.INSTANCES),
                fields.optionalText(Fields.REASON),
                fields.optionalText(Fields.OUTCOME),
                fields.number(Fields.TTL, 0));
    }
}
