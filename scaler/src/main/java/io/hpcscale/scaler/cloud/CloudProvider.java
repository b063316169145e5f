package io.hpcscale.scaler.cloud;

import io.hpcscale.scaler.pool.StopAction;
import java.util.List;

/**
 * One pool's instances in a cloud or a machine room. Every method reports failures as a {@link CloudException}
 * subtype the scaler can act on: {@link CapacityException} and {@link QuotaException} put the pool in backoff,
 * {@link ThrottledException} says when to come back.
 */
public interface CloudProvider {

    /** All instances of the pool with their power state. A failure is never an empty list. */
    List<Instance> list() throws CloudException, InterruptedException;

    void start(List<Instance> instances) throws CloudException, InterruptedException;

    void stop(List<Instance> instances, StopAction action) throws CloudException, InterruptedException;

    /** Whether {@link #create} can add instances when no stopped one is left to start. */
    boolean canCreate();

    /** Adds and starts {@code count} instances. */
    List<Instance> create(int count) throws CloudException, InterruptedException;

    /** For messages: "simulated scale set demo", "command provider of pool rack1". */
    String describe();
}
