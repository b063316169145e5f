package io.hpcscale.cloud.azure.fake;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One VM of a scale set: a numbered Uniform instance or a Flexible VM (whose instance id is its name).
 *
 * <p>Its power state is a transition read against the fake's clock, so {@code starting} turns into
 * {@code running} when the boot delay has passed without anything having to run. Changes happen under the
 * {@link ArmState} lock; reads are safe from any thread.
 */
public final class Instance {
    private record Power(PowerState during, PowerState after, Instant settlesAt) {
    }

    /** Why the last start or create of this instance failed, as {@code ProvisioningState/failed/<code>} shows. */
    public record Failure(String code, String message) {
    }

    /**
     * States a real listing shows that a scale set driven only through requests never reaches here
     * (../shared/notes/azure-as-it-really-behaves.md, "States a real listing shows").
     */
    public enum Oddity {
        NONE,
        /** {@code ProvisioningState/deleting} with {@code PowerState/deallocated}: going away. */
        DELETING,
        /** {@code PowerState/unknown}. */
        POWER_UNKNOWN,
        /** {@code ProvisioningState/failed/<code>} and no power state at all. */
        FAILED_WITHOUT_POWER,
        /** A Flexible VM listed with an empty name and id while it is deleted (cluster-autoscaler guards this). */
        NAMELESS
    }

    private final ScaleSet scaleSet;
    private final String instanceId;
    private final String name;
    private final String computerName;
    private final String vmId = UUID.randomUUID().toString();
    private final Instant timeCreated;
    private final Map<String, String> tags = new ConcurrentHashMap<>();
    private volatile Power power;
    private volatile Failure failure;
    private volatile Oddity oddity = Oddity.NONE;
    private volatile Instant goesAt;
    private volatile boolean hibernated;
    private volatile Instant startedAt;

    Instance(ScaleSet scaleSet, String instanceId, String name, String computerName, Instant timeCreated,
             PowerState initial) {
        this.scaleSet = scaleSet;
        this.instanceId = instanceId;
        this.name = name;
        this.computerName = computerName;
        this.timeCreated = timeCreated;
        this.power = new Power(null, initial, timeCreated);
    }

    public ScaleSet scaleSet() {
        return scaleSet;
    }

    /** "0", "1", ... in Uniform; the VM name in Flexible. */
    public String instanceId() {
        return instanceId;
    }

    public String name() {
        return name;
    }

    public String computerName() {
        return computerName;
    }

    public String vmId() {
        return vmId;
    }

    public Instant timeCreated() {
        return timeCreated;
    }

    public Map<String, String> tags() {
        return tags;
    }

    public Failure failure() {
        return failure;
    }

    public Oddity oddity() {
        return oddity;
    }

    /** Puts the instance in an odd state, as Azure shows them; FAILED_WITHOUT_POWER needs a failure code. */
    void odd(Oddity state, Failure why) {
        this.oddity = state;
        if (why != null) {
            this.failure = why;
        }
        if (state == Oddity.DELETING) {
            settle(PowerState.DEALLOCATED);
        }
    }

    /** An overprovisioned extra: Azure deletes it at this time. Null for an instance that was asked for. */
    public Instant goesAt() {
        return goesAt;
    }

    void goesAt(Instant at) {
        this.goesAt = at;
    }

    public PowerState powerState() {
        return powerState(scaleSet.clock().instant());
    }

    PowerState powerState(Instant now) {
        Power p = power;
        return p.during != null && now.isBefore(p.settlesAt) ? p.during : p.after;
    }

    boolean isTransitioning(Instant now) {
        return powerState(now).isTransitional();
    }

    /** Jump straight to a state, as a test arranging a scene or an eviction does. */
    void settle(PowerState state) {
        power = new Power(null, state, scaleSet.clock().instant());
    }

    /** Deallocated with its memory on its OS disk: the instance view says {@code HibernationState/Hibernated}. */
    public boolean hibernated() {
        return hibernated;
    }

    /** When it was last started; null for an instance running since it was made. */
    Instant startedAt() {
        return startedAt;
    }

    void start(Instant now, Duration bootDelay) {
        failure = null;
        PowerState current = powerState(now);
        if (current == PowerState.RUNNING || current == PowerState.STARTING) {
            return;
        }
        hibernated = false;
        startedAt = now;
        transition(PowerState.STARTING, PowerState.RUNNING, now, bootDelay);
    }

    void deallocate(Instant now, Duration stopDelay) {
        PowerState current = powerState(now);
        if (current == PowerState.DEALLOCATED || current == PowerState.DEALLOCATING) {
            return;
        }
        hibernated = false;
        transition(PowerState.DEALLOCATING, PowerState.DEALLOCATED, now, stopDelay);
    }

    /** Its memory saved to its OS disk, then deallocated; the caller checked that Azure would. */
    void hibernate(Instant now, Duration stopDelay) {
        hibernated = true;
        transition(PowerState.DEALLOCATING, PowerState.DEALLOCATED, now, stopDelay);
    }

    void powerOff(Instant now, Duration stopDelay) {
        PowerState current = powerState(now);
        if (current == PowerState.STOPPED || current == PowerState.STOPPING || current == PowerState.DEALLOCATED) {
            return;
        }
        transition(PowerState.STOPPING, PowerState.STOPPED, now, stopDelay);
    }

    /** What a start or create that could not be allocated leaves behind. */
    void fail(String code, String message) {
        failure = new Failure(code, message);
        PowerState current = powerState(scaleSet.clock().instant());
        if (current == PowerState.STARTING || current == PowerState.RUNNING) {
            settle(PowerState.DEALLOCATED);
        }
    }

    private void transition(PowerState during, PowerState after, Instant now, Duration delay) {
        power = delay.isZero() || delay.isNegative()
            ? new Power(null, after, now)
            : new Power(during, after, now.plus(delay));
    }

    @Override
    public String toString() {
        return name + "(" + computerName + ", " + powerState() + ")";
    }
}
