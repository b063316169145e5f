package io.hpcscale.scaler.plan;

import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.documents.IdleLearning;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The idle timeout in force for a pool: the administrator's, or with {@code idlePolicy = adaptive} the one chosen from
 * what the pool has seen.
 *
 * <p>Keeping an idle node is renting; stopping it and booting another when work comes is buying, at the price of one
 * boot. Keeping a node for the price of a boot before stopping it is never worse than twice the best choice made
 * knowing the future (the ski-rental bound); knowing how work has arrived does better. Over the pool's recent gaps
 * between arrivals, a timeout T costs, per gap g: g node-seconds when the work came within T (the node waited, then
 * served), else T node-seconds kept for nothing plus the price of a boot. The adaptive timeout is the T between the
 * administrator's bounds that costs least over the gaps seen: as short as allowed where work comes rarely, as long as
 * the gaps where it comes often. A boot is priced at what the pool's own boots took (their median, from the start call
 * to the node serving) twice: once for the node paid while it boots, once for the work that waits as long. Priced at
 * the node time alone, a node would be kept only for work due within one boot, and every job after a pause a few
 * minutes long would wait for a boot to save less node time than it waited.
 */
public final class IdleTimeouts {
    /** Fewer gaps than this say too little of how work arrives; the administrator's idle timeout holds meanwhile. */
    static final int GAPS_NEEDED = 20;

    /** The timeout in force, and why it is what it is, in words for the drain's reason. */
    public record Chosen(Duration timeout, String why) {
    }

    private IdleTimeouts() {
    }

    public static Chosen of(PoolConfig pool, IdleLearning learned) {
        PoolConfig.AdaptiveIdle adaptive = pool.adaptiveIdle();
        if (adaptive == null) {
            return new Chosen(pool.idleTimeout(), "idle timeout " + Durations.format(pool.idleTimeout()));
        }
        if (learned.arrivalGaps().size() < GAPS_NEEDED || learned.bootSeconds().isEmpty()) {
            return new Chosen(pool.idleTimeout(), "idle timeout " + Durations.format(pool.idleTimeout())
                    + ", the adaptive one still learning (" + learned.arrivalGaps().size() + " of " + GAPS_NEEDED
                    + " arrivals, " + Words.count(learned.bootSeconds().size(), "boot") + " seen)");
        }
        long boot = median(learned.bootSeconds());
        long min = adaptive.min().toSeconds();
        long max = adaptive.max().toSeconds();
        long best = cheapest(learned.arrivalGaps(), boot, min, max);
        Duration timeout = Duration.ofSeconds(best);
        return new Chosen(timeout, "adaptive idle timeout " + Durations.format(timeout) + ", the cheapest over the "
                + "last " + learned.arrivalGaps().size() + " arrivals with boots of " + Durations.format(
                Duration.ofSeconds(boot)));
    }

    /** The timeout within [min, max] that costs least over the gaps; the shorter of two that cost the same. */
    static long cheapest(List<Long> gaps, long boot, long min, long max) {
        List<Long> sorted = new ArrayList<>(gaps);
        sorted.sort(null);
        // The cost only changes its slope at a gap, so the cheapest timeout is a bound or a gap between them.
        TreeSet<Long> candidates = new TreeSet<>(List.of(min, max));
        for (long gap : sorted) {
            if (gap > min && gap < max) {
                candidates.add(gap);
            }
        }
        long best = min;
        double bestCost = Double.MAX_VALUE;
        for (long timeout : candidates) {
            double cost = 0;
            for (long gap : sorted) {
                cost += gap <= timeout ? gap : timeout + 2 * boot;
            }
            if (cost < bestCost) {
                bestCost = cost;
                best = timeout;
            }
        }
        return best;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }
}
