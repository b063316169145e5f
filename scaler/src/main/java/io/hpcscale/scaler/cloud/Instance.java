package io.hpcscale.scaler.cloud;

import java.util.Objects;

/**
 * One instance of a pool's scale set.
 *
 * @param nodeName the name its scheduler node has (the VM's host name)
 */
public record Instance(String id, String nodeName, PowerState state) {
    public Instance {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(state, "state");
    }
}
