package io.hpcscale.scaler.documents;

import static io.hpcscale.common.codec.FieldWriter.putInstant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.codec.DocumentFormat;
import io.hpcscale.common.codec.FieldReader;
import io.hpcscale.common.model.DocumentType;

/** The lease that lets one scaler act. */
public final class LeaseFormat implements DocumentFormat<LeaseDocument> {

    @Override
    public DocumentType type() {
        return DocumentType.LEASE;
    }

    @Override
    public Class<LeaseDocument> documentClass() {
        return LeaseDocument.class;
    }


    @Override
    public void encode(LeaseDocument lease, ObjectNode json) {
        json.put(Fields.HOLDER, lease.holder());
        json.put(Fields.HOST, lease.host());
        json.put(Fields.PID, lease.pid());
        json.put(Fields.BOOT_ID, lease.bootId());
        putInstant(json, Fields.RENEWED_AT, lease.renewedAt());
        putInstant(json, Fields.EXPIRES_AT, lease.expiresAt());
    }

    @Override
    public LeaseDocument decode(FieldReader fields) {
        String holder = fields.optionalText(Fields.HOLDER);
        return new LeaseDocument(holder == null ? "" : holder, fields.optionalText(Fields.HOST),
                fields.number(Fields.PID, 0), fields.optionalText(Fields.BOOT_ID), fields.instant(Fields.RENEWED_AT),
                fields.requiredInstant(Fields.EXPIRES_AT));
    }
}
