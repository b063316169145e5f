package io.hpcscale.scaler.documents;

import io.hpcscale.common.codec.DocumentFuzzing;
import io.hpcscale.common.model.ClusterLoadDocument;
import java.util.List;

/** The scaler's own documents, damaged as {@link DocumentFuzzing} damages every stored document. */
class ScalerDocumentFuzzTest extends DocumentFuzzing {

    @Override
    protected List<ClusterLoadDocument> documentsOfEveryType() {
        return ScalerDocumentFormatsTest.documentsOfEveryType();
    }
}
