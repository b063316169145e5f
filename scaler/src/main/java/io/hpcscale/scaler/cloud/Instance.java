package io.hpcscale.scaler.cloud;

import java.util.Objects;

/**
 * One instance of a pool's scale set.
 *
 * @param nodeName the name its scheduler node has (the VM's host name)
 * @param failure    why the cloud says its provisioning failed, or null
 * @param hibernated stopped with its memory saved ({@code stopAction = hibernate}): a start resumes it, sooner
 *                   than a boot
 */
public record Instance(String id, String nodeName, PowerState state, InstanceFailure failure, boolean hibernated) {
    public Instance {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(nodeName, "nodeName");
        Objects.requireNonNull(state, "state");
    }

    public Instance(String id, String nodeName, PowerState state, InstanceFailure failure) {
        this(id, nodeName, state, failure, false);
    }

    public Instance(String id, String nodeName, PowerState state) {
        this(id, nodeName, state, null, false);
    }
}
