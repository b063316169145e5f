package io.hpcscale.scaler.cloud;

import io.hpcscale.scaler.documents.GrowthAsked;
import io.hpcscale.scaler.pool.StopAction;
import io.hpcscale.scaler.pool.VmShape;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One pool's instances in a cloud or a machine room. Failures are {@link CloudException} subtypes the scaler acts
 * on: {@link CapacityException} and {@link QuotaException} put the pool in backoff, {@link ThrottledException} says
 * when to come back. A call that failed as a whole throws; a call that did some of what was asked reports it per
 * instance.
 *
 * <p>Every call is safe to repeat, which is what lets a scaler killed in the middle of one start again and carry on:
 * starting an instance that already starts or runs, or stopping one that already stops or is stopped, changes
 * nothing. The scaler never repeats a create blindly: it plans again from a fresh listing, where instances created
 * by an interrupted call already count.
 */
public interface CloudProvider {

    /** All instances of the pool with their power state. A failure is never an empty list. */
    List<Instance> list() throws CloudException, InterruptedException;

    InstanceResults start(List<Instance> instances) throws CloudException, InterruptedException;

    InstanceResults stop(List<Instance> instances, StopAction action) throws CloudException, InterruptedException;

    /**
     * What one instance offers, read from the cloud (the VM size), for pools whose settings leave it out; empty when
     * this provider cannot say.
     */
    default Optional<VmShape> vmShape() throws CloudException, InterruptedException {
        return Optional.empty();
    }

    /**
     * What the cloud says of the pool's instances, as node properties for constraints ({@code vm_size},
     * {@code vm_family}, {@code location}, {@code spot}, {@code pcpu_count}, {@code infiniband},
     * {@code placement_group}); only what it already knows, never a call. Empty when it cannot say.
     */
    default Map<String, Object> nodeFacts() {
        return Map.of();
    }

    /**
     * Whether the cloud may take instances back at any time (Spot): an instance found stopped that hpcscale did not
     * stop is then an eviction. False until the provider has read what its instances are.
     */
    default boolean spot() {
        return false;
    }

    /**
     * Whether this provider's instances are those of the scale set {@code scaleSet} in {@code resourceGroup}, as
     * a node removing itself names them: how its message finds its pool. False for providers without scale sets.
     */
    default boolean manages(String resourceGroup, String scaleSet) {
        return false;
    }

    /**
     * Housekeeping after a cycle's actions: a pool spread over several scale sets deletes the sealed ones that
     * have emptied; an Azure pool with a standby pool keeps it as configured. Only the scaler's cycle calls it, never
     * a read-only command.
     *
     * @return what was done, one sentence each, for events
     */
    default List<String> tidy() throws CloudException, InterruptedException {
        return List.of();
    }

    /**
     * The parts of the pool asked to grow that have not yet been seen running what they were asked (a pool spread
     * over several scale sets times each growth to seal one that never gets there), by part. The scaler keeps it in
     * the pool's state after each cycle's actions.
     */
    default Map<String, GrowthAsked> growing() {
        return Map.of();
    }

    /**
     * Gives back, before each listing, what {@link #growing} said as the pool's state last recorded it: a restarted
     * or standby scaler's provider times the growths its predecessor asked.
     */
    default void recall(Map<String, GrowthAsked> growing) {
    }

    /** Whether {@link #create} can add instances when no stopped one is left to start. */
    boolean canCreate();

    /** Adds and starts {@code count} instances. */
    CreateResult create(int count) throws CloudException, InterruptedException;

    /**
     * The account whose limits this provider's calls count against: pools whose providers name the same account
     * share its throttling, so that one pool's 429 holds back the others' calls too.
     */
    String account();

    /** For messages: "simulated scale set demo", "command provider of pool rack1". */
    String describe();
}
