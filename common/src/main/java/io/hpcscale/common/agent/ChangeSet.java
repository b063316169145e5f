package io.hpcscale.common.agent;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentKey;
import java.util.List;

/** The writes one cycle must make, and what the store holds once they are made. */
record ChangeSet(List<ClusterLoadDocument> upserts, List<DocumentKey> deletes, WrittenDocuments after) {
}
