package io.hpcscale.scaler.documents;

import static io.hpcscale.common.codec.FieldWriter.putInstant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hpcscale.common.codec.DocumentFormat;
import io.hpcscale.common.codec.FieldReader;
import io.hpcscale.common.model.DocumentType;

/** A fixed pool's count, where the store keeps it. */
public final class PoolTargetFormat implements DocumentFormat<PoolTargetDocument> {

    @Override
    public DocumentType type() {
        return DocumentType.TARGET;
    }

    @Override
    public Class<PoolTargetDocument> documentClass() {
        return PoolTargetDocument.class;
    }


    @Override
    public void encode(PoolTargetDocument target, ObjectNode json) {
        json.put(Fields.TARGET, target.target());
        putInstant(json, Fields.SET_AT, target.setAt());
        json.put(Fields.SET_BY, target.setBy());
    }

    @Override
    public PoolTargetDocument decode(FieldReader fields) {
        int target = fields.intNumber(Fields.TARGET, -1);
        if (target < 0) {
            throw fields.fail(Fields.TARGET, target == -1 ? "is missing" : "is negative: " + target);
        }
        return new PoolTargetDocument(fields.poolName(), target, fields.instant(Fields.SET_AT),
                fields.optionalText(Fields.SET_BY));
    }
}
