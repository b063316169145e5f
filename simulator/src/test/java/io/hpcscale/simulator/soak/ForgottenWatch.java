package io.hpcscale.simulator.soak;

import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.SimulatedCloud;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Watches for forgotten instances all through a scenario: one active (starting or running) without its node up,
 * past its pool's boot timeout, through a stretch of calm time (no fault on) in which the scaler should have
 * stopped it. Only calm time counts: while the store is down or the cloud throttles, the scaler cannot act, and
 * must not. Nor an orphan its pool is told to leave running (stopOrphans = false). Nor while an administrator
 * holds the instance's node offline: hpcscale leaves such a node as the
 * administrator left it (DESIGN.md), so the count starts again once the mark is cleared.
 */
final class ForgottenWatch {
    private final SimulatedCloud cloud;
    private final Map<String, Duration> bootTimeouts;
    private final Duration calmAllowed;
    private final Predicate<String> heldByAdministrator;
    private final Predicate<String> leftRunning;
    private final Map<String, Instant> activeSince = new HashMap<>();
    // For each instance found past its boot timeout: the calm time so far when it was.
    private final Map<String, Duration> overdueAtCalm = new HashMap<>();
    private Duration calm = Duration.ZERO;

    /**
     * @param bootTimeouts        each pool's boot timeout, by pool name
     * @param heldByAdministrator whether an administrator holds the node of this name offline
     * @param leftRunning         whether the instance of this id is an orphan its pool is told to leave running
     */
    ForgottenWatch(SimulatedCloud cloud, Map<String, Duration> bootTimeouts, Duration calmAllowed,
            Predicate<String> heldByAdministrator, Predicate<String> leftRunning) {
        this.cloud = cloud;
        this.bootTimeouts = Map.copyOf(bootTimeouts);
        this.calmAllowed = calmAllowed;
        this.heldByAdministrator = heldByAdministrator;
        this.leftRunning = leftRunning;
        cloud.addListener((pool, instance, from, evicted, at) -> {
            if (instance.state().active() && !from.active()) {
                activeSince.put(instance.id(), at);
                overdueAtCalm.remove(instance.id());
            }
        });
    }

    /** Time passed without any fault on. */
    void calmFor(Duration time) {
        calm = calm.plus(time);
    }

    /** Instances forgotten as of {@code now}, each reported once per start. */
    List<String> check(Instant now) {
        List<String> forgotten = new ArrayList<>();
        for (Map.Entry<String, Duration> pool : bootTimeouts.entrySet()) {
            for (Instance instance : cloud.instances(pool.getKey())) {
                Instant since = activeSince.get(instance.id());
                if (!instance.state().active() || since == null || cloud.nodeUp(pool.getKey(), instance.nodeName())
                        || !now.isAfter(since.plus(pool.getValue())) || leftRunning.test(instance.id())) {
                    continue;
                }
                if (heldByAdministrator.test(instance.nodeName())) {
                    overdueAtCalm.put(instance.id(), calm);
                    continue;
                }
                Duration overdueAt = overdueAtCalm.computeIfAbsent(instance.id(), id -> calm);
                if (calm.minus(overdueAt).compareTo(calmAllowed) > 0) {
                    forgotten.add("instance " + instance.id() + " forgotten: " + instance.state() + " since " + since
                            + " without its node up, past its boot timeout of " + pool.getValue() + " through "
                            + calmAllowed + " without faults");
                    // Reported once: from now on it counts as found past its timeout only at the end of time.
                    overdueAtCalm.put(instance.id(), Duration.ofDays(365_000));
                }
            }
        }
        return forgotten;
    }
}
