package io.hpcscale.scaler.fixed;

import java.util.OptionalInt;

/**
 * Where a fixed pool's count of instances lives: a resource-group tag for Azure pools, so that a render manager or an
 * administrator can set it with the tools they already use; the store for the others.
 */
public interface TargetSource {

    /**
     * @return the count, or empty when none has been set yet
     * @throws TargetUnavailableException when it cannot be read or is not a count: never read as zero
     */
    OptionalInt read() throws TargetUnavailableException, InterruptedException;

    /** Sets the count, leaving everything else where it lives (the group's other tags) as it was. */
    void write(int count, String setBy) throws TargetUnavailableException, InterruptedException;

    /** For messages: "tag TOTAL_NODES of resource group render-rg". */
    String describe();
}
