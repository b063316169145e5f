package io.hpcscale.scaler.plan;

import java.util.Arrays;
import java.util.Optional;

/**
 * What the scaler did, or declined to do and why: the one vocabulary of its log lines, events documents, the
 * {@code plan} and {@code once} output, the simulator and the tests.
 */
public enum EventKind {
    START("start", true),
    CREATE("create", true),
    STOP("stop", true),
    BOOT_TIMEOUT("boot-timeout", true),
    /** An instance replaced because its node's health check failed: a failed boot. */
    UNHEALTHY("unhealthy", true),
    DRAIN("drain", true),
    CANCEL_DRAIN("cancel-drain", true),
    POWER_REQUEST_DONE("power-request-done", true),
    /** An instance deleted because its node asked to be removed. */
    REMOVE("remove", true),
    /** A node's removal request taken on: recorded, its message deleted. */
    REMOVAL_ACCEPTED("removal-accepted", true),
    /** A scale set of a pool spread over several stopped growing: no growth is asked of it again. */
    SEALED("sealed", true),
    /** Housekeeping of the provider: a sealed scale set's stopped instances, or the emptied set, deleted. */
    TIDY("tidy", true),
    /** A fixed pool's count lowered for a removal. */
    TARGET_LOWERED("target-lowered", true),
    /** A removal message delivered again for a removal taken on already: deleted, nothing done twice. */
    REMOVAL_DUPLICATE("removal-duplicate", true),
    /** The cloud took a Spot instance back: found in a listing, not done by hpcscale. */
    EVICTED("evicted", false),
    /** An instance whose provisioning failed: counted as a failed boot if hpcscale started it, never started again. */
    FAILED_VM("failed-vm", false),
    /** An instance hpcscale knew running was stopped or deleted by someone else. */
    STOPPED_ELSEWHERE("stopped-elsewhere", false),
    /** An instance the scale set made beyond what was asked, and deleted again: overprovisioning, not an eviction. */
    OVERPROVISIONED("overprovisioned", false),
    /** A node an agent reports in the pool that none of the pool's instances is (by name). */
    NODE_WITHOUT_INSTANCE("node-without-instance", false),

    /** The pool's instances could not be listed: nothing is done to it. */
    INSTANCES_UNKNOWN("instances-unknown", false),
    /** The pool's agent has not read the scheduler recently: scale-down is frozen. */
    STALE("stale", false),
    BACKOFF("backoff", false),
    UNSATISFIABLE("unsatisfiable", false),
    /** A job needing all its nodes at once did not get them all within the pool's gangTimeout: they are given back. */
    GANG_INCOMPLETE("gang-incomplete", false),
    /** Too many boots failed in a row: the pool starts no instance but a probe until resumed. */
    PROTECTED("protected", false),
    /** A protected pool was resumed, by an administrator or a probe that booted. */
    RESUMED("resumed", false),
    /** An instance hpcscale did not start runs, billing, with a node no agent reports. */
    ORPHAN("orphan", false),
    AT_MAX("at-max", false),
    NOTHING_TO_START("nothing-to-start", false),
    WAITING_FOR_JOBS("waiting-for-jobs", false),
    /** An administrator holds a node offline: hpcscale neither starts, stops, drains nor returns it. */
    HELD_BY_ADMINISTRATOR("held-by-administrator", false),
    UNREPORTED_NODE("unreported-node", false),
    THROTTLED("throttled", false),
    /** The pool's previous operation is still running: it is not planned again until that ends. */
    BUSY("busy", false),
    /**
     * The outcome of an action an earlier scaler asked for but did not live to record, as the listing now shows it.
     */
    SETTLED("settled", false),
    /** A fixed pool's target cannot be read, is not set or is not a count: nothing is started or stopped. */
    TARGET_UNKNOWN("target-unknown", false),
    /** A fixed pool runs more than its target and nothing may be stopped to meet it. */
    ABOVE_TARGET("above-target", false),
    /** Spot evictions keep coming: the pool backs off rather than chase them. */
    EVICTION_BACKOFF("eviction-backoff", false),
    /** A removal message that cannot be carried out (no such instance, no pool, unreadable): set aside. */
    REMOVAL_SET_ASIDE("removal-set-aside", false),
    /** A removal taken on that waits: its node is draining, or the agent has not reported recently. */
    REMOVAL_WAITS("removal-waits", false),
    /** The scaler's memory of the pool cannot be read or written: the pool is not acted on. */
    STATE_UNAVAILABLE("state-unavailable", false),
    /** An administrator's decision method failed, or asked for what hpcscale's own rules refuse. */
    CUSTOM_DECISION("custom-decision", false);

    private final String wireName;
    private final boolean action;

    EventKind(String wireName, boolean action) {
        this.wireName = wireName;
        this.action = action;
    }

    public String wireName() {
        return wireName;
    }

    /** An action changes something; every other kind is a refusal or a condition worth recording. */
    public boolean action() {
        return action;
    }

    public static Optional<EventKind> fromWireName(String name) {
        return Arrays.stream(values()).filter(k -> k.wireName.equals(name)).findFirst();
    }

    @Override
    public String toString() {
        return wireName;
    }
}
