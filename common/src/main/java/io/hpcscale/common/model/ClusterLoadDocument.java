package io.hpcscale.common.model;

/** A typed document of the ClusterLoad contract (schema version 1). */
public sealed interface ClusterLoadDocument
        permits JobDocument, VmDocument, DrainDocument, AgentDocument, EventDocument, PowerDocument, LeaseDocument,
        ScalerStateDocument, ChangeMarkerDocument, PoolTargetDocument, UsageDocument {
    int SCHEMA_VERSION = 1;
    /** Partition of documents that belong to no pool (agent heartbeats, the scaler lease). */
    String META_POOL = "_meta";

    String id();

    String poolName();

    DocumentType type();

    default DocumentKey key() {
        return new DocumentKey(poolName(), id());
    }
}
