package io.hpcscale.cloud.azure.fake;

import java.time.Clock;
import java.time.Duration;

/**
 * The knobs a test turns: how time passes in the fake and how fast it lets the SDK go.
 *
 * <p>Fields are volatile because tests change them while server threads read them.
 */
public final class Settings {
    private volatile Clock clock = Clock.systemUTC();
    private volatile Duration bootDelay = Duration.ZERO;
    private volatile Duration stopDelay = Duration.ZERO;
    private volatile Duration operationDuration = Duration.ZERO;
    private volatile int pageSize = 50;
    private volatile int retryAfterSeconds = 0;
    private volatile boolean flexibleNextLinkEncoded = false;
    private volatile Duration overprovisionedExtrasLinger = Duration.ofMinutes(2);
    private volatile Duration hibernationRefusedAfterStart = Duration.ofMinutes(2);

    public Clock clock() {
        return clock;
    }

    /** Real time by default; a {@link MutableClock} lets a test jump over boot delays. */
    public Settings clock(Clock clock) {
        this.clock = clock;
        return this;
    }

    public Duration bootDelay() {
        return bootDelay;
    }

    /** How long a started or newly created instance stays {@code starting} before it is {@code running}. */
    public Settings bootDelay(Duration bootDelay) {
        this.bootDelay = bootDelay;
        return this;
    }

    public Duration stopDelay() {
        return stopDelay;
    }

    /** How long {@code deallocating} and {@code stopping} last. */
    public Settings stopDelay(Duration stopDelay) {
        this.stopDelay = stopDelay;
        return this;
    }

    public Duration operationDuration() {
        return operationDuration;
    }

    /** How long every long-running operation stays InProgress unless a fault says otherwise. */
    public Settings operationDuration(Duration operationDuration) {
        this.operationDuration = operationDuration;
        return this;
    }

    public int pageSize() {
        return pageSize;
    }

    public Settings pageSize(int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be at least 1");
        }
        this.pageSize = pageSize;
        return this;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /**
     * The Retry-After sent with long-running operations; 0 (the default) sends none, as real Compute often does
     * (../shared/notes/azure-as-it-really-behaves.md, "Operation polling"): the client then picks its own interval.
     */
    public Settings retryAfterSeconds(int seconds) {
        this.retryAfterSeconds = seconds;
        return this;
    }

    public boolean flexibleNextLinkEncoded() {
        return flexibleNextLinkEncoded;
    }

    /**
     * Whether a Flexible listing's next link comes back with its query percent-encoded. By default it does not:
     * the {@code $filter} value comes back raw (spaces, quotes, slashes), as reported in azure-sdk-for-java#36506
     * and azure-rest-api-specs#25640; Microsoft said it was fixed and a later report says not, so both are tested.
     */
    public Settings flexibleNextLinkEncoded(boolean encoded) {
        this.flexibleNextLinkEncoded = encoded;
        return this;
    }

    public Duration overprovisionedExtrasLinger() {
        return overprovisionedExtrasLinger;
    }

    /**
     * How long the extra instances of an overprovisioning Uniform scale set live before Azure deletes them. Azure
     * publishes neither how many extras it makes nor how long they live ("spins up more VMs than you asked for,
     * then deletes the extra VMs", Microsoft Learn, scale set design overview); minutes is what users report.
     */
    public Settings overprovisionedExtrasLinger(Duration linger) {
        this.overprovisionedExtrasLinger = linger;
        return this;
    }

    public Duration hibernationRefusedAfterStart() {
        return hibernationRefusedAfterStart;
    }

    /**
     * How long after its start a VM refuses to hibernate ({@code VMHibernateNotSupported}: "Hibernating a VM
     * immediately after boot isn't supported. Retry hibernating the VM after a few minutes", Microsoft Learn,
     * "Troubleshooting VM hibernation"). Azure says "a few minutes"; the number is the fake's.
     */
    public Settings hibernationRefusedAfterStart(Duration after) {
        this.hibernationRefusedAfterStart = after;
        return this;
    }
}
