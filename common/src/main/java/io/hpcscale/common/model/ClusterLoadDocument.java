package io.hpcscale.common.model;

/**
 * A typed document of the ClusterLoad contract (schema version 1). The documents agents and the scaler exchange are
 * in this package; a program's own documents (the scaler's state, lease, events, usage and targets) are its
 * module's, written and read through a {@link io.hpcscale.common.codec.DocumentFormat} it brings.
 */
public interface ClusterLoadDocument {
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
