package io.hpcscale.cloud.azure.fake;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The subscription's standby pools, and whether it has registered their resource provider. */
public final class StandbyPools {
    private final Map<String, StandbyPool> pools = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private volatile boolean registered = true;

    /**
     * Whether {@code Microsoft.StandbyPool} is registered; false as in a subscription that never ran {@code az provider
     * register}: Microsoft Learn's standby pools overview registers it first, and ARM refuses a provider's resources
     * until it is.
     */
    public void registered(boolean registered) {
        this.registered = registered;
    }

    boolean registered() {
        return registered;
    }

    /** Registered or NotRegistered, as {@code GET .../providers/Microsoft.StandbyPool} says. */
    String registrationState() {
        return registered ? "Registered" : "NotRegistered";
    }

    /** The pool, for a test to read. */
    public synchronized Optional<StandbyPool> get(String resourceGroup, String name) {
        return pools.values().stream()
            .filter(p -> p.resourceGroup().name().equalsIgnoreCase(resourceGroup) && p.name().equalsIgnoreCase(name))
            .findFirst();
    }

    synchronized StandbyPool getOrCreate(ResourceGroup group, String name) {
        return pools.computeIfAbsent(group.id() + "/" + name, key -> new StandbyPool(group, name));
    }

    /**
     * A VM for one more instance of the scale set from the standby pool attached to it, if it holds a ready one:
     * the scale set starts it instead of creating a VM.
     */
    synchronized boolean handOut(ScaleSet scaleSet, Instant now, Duration makeTime) {
        return pools.values().stream()
            .filter(p -> scaleSet.id().equalsIgnoreCase(p.attachedScaleSetId()))
            .findFirst()
            .map(p -> p.handOut(scaleSet.capacity(), now, makeTime))
            .orElse(false);
    }
}
