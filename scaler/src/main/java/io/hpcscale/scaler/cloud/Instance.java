package io.hpcscale.scaler.cloud;

import java.util.Objects;

/**
 * One instance of a pool's scale set.
 *
 * @param nodeName the name its scheduler node has (the VM's host name)
 * @param failure  why the cloud says its provisioning failed, or null
 */
public record Instance(String id, String nodeName, PowerState state, InstanceFailure failure) {
    public Instance {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(state, "state");
    }

    public Instance(String id, String nodeName, PowerState state) {
        this(id, nodeName, state, null);
    }
}
