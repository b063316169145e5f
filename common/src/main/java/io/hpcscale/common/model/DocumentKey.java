package io.hpcscale.common.model;

import java.util.Objects;

/** Where a document lives: its partition ({@code PoolName}) and its {@code id} within it. */
public record DocumentKey(String poolName, String id) {
    public DocumentKey {
        Objects.requireNonNull(poolName, "poolName");
        Objects.requireNonNull(id, "id");
    }

    @Override
    public String toString() {
        return poolName + "/" + id;
    }
}
