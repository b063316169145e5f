package io.hpcscale.scaler.documents;

import static io.hpcscale.common.codec.FieldWriter.putInstant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.codec.DocumentFormat;
import io.hpcscale.common.codec.FieldReader;
import io.hpcscale.common.model.DocumentType;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/** A pool's instance and busy seconds of one day, for {@code hpcscale-scaler usage}. */
public final class UsageFormat implements DocumentFormat<UsageDocument> {

    @Override
    public DocumentType type() {
        return DocumentType.USAGE;
    }

    @Override
    public Class<UsageDocument> documentClass() {
        return UsageDocument.class;
    }


    @Override
    public void encode(UsageDocument usage, ObjectNode json) {
        json.put(Fields.DAY, usage.day().toString());
        json.put(Fields.INSTANCE_SECONDS, usage.instanceSeconds());
        json.put(Fields.BUSY_SECONDS, usage.busySeconds());
        putInstant(json, Fields.LAST_SAMPLE_AT, usage.lastSampleAt());
        json.put(Fields.LAST_ACTIVE, usage.lastActive());
        json.put(Fields.LAST_BUSY, usage.lastBusy());
        json.put(Fields.TTL, UsageDocument.KEPT_FOR.toSeconds());
    }

    @Override
    public UsageDocument decode(FieldReader fields) {
        String day = fields.requiredText(Fields.DAY);
        LocalDate parsed;
        try {
            parsed = LocalDate.parse(day);
        } catch (DateTimeParseException e) {
            throw fields.fail(Fields.DAY, "is not a date: '" + day + "'");
        }
        return new UsageDocument(
                fields.poolName(),
                parsed,
                fields.decimal(Fields.INSTANCE_SECONDS),
                fields.decimal(Fields.BUSY_SECONDS),
                fields.requiredInstant(Fields.LAST_SAMPLE_AT),
                fields.intNumber(Fields.LAST_ACTIVE, 0),
                fields.intNumber(Fields.LAST_BUSY, 0));
    }
}
