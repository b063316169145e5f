package io.hpcscale.scaler.run;

import io.hpcscale.scaler.cloud.CloudProvider;
import io.hpcscale.scaler.pool.PoolConfig;

/** A pool as the scaler runs it: its settings and its provider. What it remembers lives in the store. */
public record PoolRuntime(PoolConfig config, CloudProvider provider) {
    public String name() {
        return config.name();
    }
}
