package io.hpcscale.simulator;

import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.HealthDocument.State;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code hpcscale-node} does on each simulated node, stepped with the scheduler: at each boot it removes a notice
 * left from before (an eviction) and, in a pool with a {@code healthCheck}, runs the check before the scheduler's
 * daemon starts ({@code PENDING}, then the result after {@code checkTime}); after a failure the daemon waits until the
 * agent held the node, or {@code holdWait} passed. A write the store refuses is tried again at the next look, the
 * daemon waiting meanwhile, as on a real node. Which boots fail their check is the test's to say.
 */
public final class SimulatedNodePrograms {
    private final DocumentStore store;
    private final Set<String> checkedPools;
    private final Duration checkTime;
    private final Duration holdWait;
    private final Map<String, Boot> boots = new HashMap<>();
    private final Map<String, Integer> failuresToCome = new HashMap<>();
    private int failedChecks;

    /** One boot of a node: when its check began, how it ended and when. */
    private static final class Boot {
        final Instant at;
        State state = State.PENDING;
        Instant resultAt;
        /** Its check failed and its daemon started unheld, once holdWait passed: the documented window. */
        boolean holdWaitRanOut;

        Boot(Instant at) {
            this.at = at;
        }
    }

    public SimulatedNodePrograms(DocumentStore store, Set<String> checkedPools, Duration checkTime,
            Duration holdWait) {
        this.store = store;
        this.checkedPools = Set.copyOf(checkedPools);
        this.checkTime = checkTime;
        this.holdWait = holdWait;
    }

    /** The next {@code count} boots in the pool fail their health check. */
    public synchronized void failNextChecks(String pool, int count) {
        failuresToCome.merge(pool, count, Integer::sum);
    }

    /** The failures announced and not yet come do not come. */
    public synchronized void noMoreFailures() {
        failuresToCome.clear();
    }

    public synchronized int failedChecks() {
        return failedChecks;
    }

    boolean checks(String pool) {
        return checkedPools.contains(pool);
    }

    /**
     * Whether the node's scheduler daemon runs now, for the boot its VM began at {@code bootedAt}: at once in a pool
     * that checks nothing; otherwise once its check passed, or failed and the agent held it (or {@code holdWait}
     * passed).
     */
    synchronized boolean daemonUp(String pool, String node, Instant bootedAt, Instant now) {
        try {
            return daemonUpOrThrow(pool, node, bootedAt, now);
        } catch (StoreException e) {
            // The node tries again at its next look, as hpcscale-node-check does; its daemon waits meanwhile.
            return !checks(pool);
        }
    }

    private boolean daemonUpOrThrow(String pool, String node, Instant bootedAt, Instant now) {
        Boot boot = boots.get(node);
        if (boot == null || !boot.at.equals(bootedAt)) {
            if (store.read(NoticeDocument.keyFor(node), NoticeDocument.class).isPresent()) {
                store.delete(List.of(NoticeDocument.keyFor(node)));
                moveMarker(now);
            }
            if (checks(pool)) {
                write(HealthDocument.of(node, State.PENDING, null, now), now);
            }
            boot = new Boot(bootedAt);
            boots.put(node, boot);
        }
        if (!checks(pool)) {
            return true;
        }
        if (boot.state == State.PENDING && !now.isBefore(boot.at.plus(checkTime))) {
            boolean fails = failuresToCome.getOrDefault(pool, 0) > 0;
            State result = fails ? State.FAILED : State.PASSED;
            write(HealthDocument.of(node, result, fails ? "ERROR:  nhc:  Health check failed:  simulated" : "",
                    now), now);
            if (fails) {
                failuresToCome.merge(pool, -1, Integer::sum);
                failedChecks++;
            }
            boot.state = result;
            boot.resultAt = now;
        }
        return switch (boot.state) {
            case PENDING -> false;
            case PASSED -> true;
            case FAILED -> {
                boolean held = store.read(HealthDocument.keyFor(node), HealthDocument.class)
                        .map(check -> check.document().heldAt() != null).orElse(false);
                boot.holdWaitRanOut |= !held && !now.isBefore(boot.resultAt.plus(holdWait));
                yield held || boot.holdWaitRanOut;
            }
        };
    }

    /**
     * Whether the node's check of this boot failed and its daemon started without the agent's hold, once
     * {@code holdWait} passed: what docs/operations.md says a node does when no agent holds it in time (the store or
     * the agent down that long), rather than wait for good.
     */
    synchronized boolean holdWaitRanOut(String node) {
        Boot boot = boots.get(node);
        return boot != null && boot.holdWaitRanOut;
    }

    /** Whether the node's check of this boot passed; true in a pool that checks nothing. */
    synchronized boolean passed(String pool, String node) {
        Boot boot = boots.get(node);
        return !checks(pool) || (boot != null && boot.state == State.PASSED);
    }

    /** The platform announces a Spot eviction to the node, which writes its notice, as hpcscale-node-events does. */
    public synchronized void preempt(String node, Instant notBefore, Instant now) {
        store.upsert(List.of(NoticeDocument.of(node, "preempt-" + node + "-" + now.getEpochSecond(), "Preempt",
                notBefore, "", now)));
        moveMarker(now);
    }

    private void write(HealthDocument check, Instant now) {
        store.upsert(List.of(check));
        moveMarker(now);
    }

    private void moveMarker(Instant now) {
        store.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, now)));
    }
}
