package io.hpcscale.cloud.azure;

import io.hpcscale.common.config.Durations;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One subscription's Compute throttling budget, as hpcscale spends it and as Azure reports it.
 *
 * <p>Compute counts requests in token buckets per subscription (and region) and reports what is left of each in
 * {@code x-ms-ratelimit-remaining-resource} on every reply, e.g.
 * {@code Microsoft.Compute/HighCostGetVMScaleSet3Min;187,Microsoft.Compute/HighCostGetVMScaleSet30Min;897}.
 * Listing a scale set's VMs spends the {@code HighCostGetVMScaleSet} buckets: about 190 requests per 3 minutes
 * and 900 per 30 minutes (Microsoft Learn's compute
 * throttling limits and Giant Swarm's azure-operator). hpcscale keeps an allowance of its own for each: a tenth
 * of the bucket at most, refilled at 40% of the bucket's rate, and lists only what the allowance has room for. The
 * pages of every scale set of the subscription share it: the more (and larger) scale sets, the longer between
 * listings. Over any of a bucket's windows hpcscale spends at most half of it, and on its own account never takes
 * it below nine tenths. Other clients of the subscription spend the buckets too: when Azure reports one below a
 * quarter, hpcscale lists nothing until it has refilled to half.
 */
final class ComputeBudget {
    /** A listing bucket as Microsoft documents it. */
    record Bucket(String name, int capacity, Duration window) {
        double refillPerSecond() {
            return capacity / (double) window.toSeconds();
        }
    }

    static final Bucket LIST_3_MIN = new Bucket("HighCostGetVMScaleSet3Min", 190, Duration.ofMinutes(3));
    static final Bucket LIST_30_MIN = new Bucket("HighCostGetVMScaleSet30Min", 900, Duration.ofMinutes(30));
    /** hpcscale's burst, as a share of a bucket. */
    private static final double BURST = 0.10;
    /** hpcscale's rate, as a share of a bucket's refill: with the burst, half a bucket over any of its windows. */
    private static final double RATE = 0.40;
    /** Below this share reported, nothing is listed until the bucket is back at {@link #REFILLED}. */
    private static final double LOW_WATER = 0.25;
    private static final double REFILLED = 0.5;
    /** A scale set that asked within this (a few cycles) is still waiting for its turn. */
    private static final Duration STILL_WAITING = Duration.ofMinutes(3);
    /** What a scale set with a listing waits while one listed longer ago takes the room first. */
    static final Duration TURN = Duration.ofSeconds(1);

    private record Reading(int remaining, Instant at) {
    }

    /** A token bucket of hpcscale's own: a tenth of a Compute bucket's capacity, refilled at 40% of its rate. */
    private static final class Allowance {
        private final Bucket bucket;
        private double tokens;
        private Instant at;

        Allowance(Bucket bucket, Instant now) {
            this.bucket = bucket;
            this.tokens = bucket.capacity() * BURST;
            this.at = now;
        }

        double available(Instant now) {
            double refilled = Duration.between(at, now).toMillis() / 1000.0 * bucket.refillPerSecond() * RATE;
            return Math.min(bucket.capacity() * BURST, tokens + Math.max(0, refilled));
        }

        void spend(int requests, Instant now) {
            tokens = available(now) - requests;
            at = now;
        }

        /**
         * How long until {@code requests} fit; a listing larger than the whole allowance waits until it is full,
         * and its debt delays the next one.
         */
        Duration until(int requests, Instant now) {
            double missing = Math.min(requests, bucket.capacity() * BURST) - available(now);
            return missing <= 0 ? Duration.ZERO
                    : Duration.ofMillis((long) Math.ceil(missing / (bucket.refillPerSecond() * RATE) * 1000));
        }
    }

    private final Clock clock;
    private final Map<String, Allowance> allowances = new LinkedHashMap<>();
    private final Map<String, Reading> reported = new ConcurrentHashMap<>();
    private final Map<String, Instant> lastListed = new HashMap<>();
    /** Scale sets that asked for a listing, and when they last asked: a turn is kept for them a while. */
    private final Map<String, Instant> waiting = new HashMap<>();
    /** Pages taken from the allowances for a listing under way, by scale set. */
    private final Map<String, Integer> reserved = new HashMap<>();

    ComputeBudget(Clock clock) {
        this.clock = clock;
        Instant now = clock.instant();
        for (Bucket bucket : new Bucket[] {LIST_3_MIN, LIST_30_MIN}) {
            allowances.put(bucket.name(), new Allowance(bucket, now));
        }
    }

    /** Records what one reply's {@code x-ms-ratelimit-remaining-resource} says. */
    void observe(String header) {
        if (header == null || header.isBlank()) {
            return;
        }
        Instant now = clock.instant();
        for (String entry : header.split(",")) {
            int semicolon = entry.lastIndexOf(';');
            if (semicolon < 0) {
                continue;
            }
            String name = entry.substring(0, semicolon).strip();
            name = name.substring(name.indexOf('/') + 1);
            try {
                reported.put(name, new Reading(Integer.parseInt(entry.substring(semicolon + 1).strip()), now));
            } catch (NumberFormatException e) {
                // A value Compute has never sent: this bucket is simply not read.
            }
        }
    }

    /**
     * How long before a listing of {@code pages} requests of {@code scaleSet} may go out: zero when hpcscale's
     * allowances have room for it, Azure reports no listing bucket low, and no scale set listed longer ago (or never)
     * is waiting for the same room. When the budget is short, the scale set listed longest ago goes first, so that
     * with many scale sets each is listed in turn and none waits for its first listing behind others' second.
     *
     * @param listed whether the scale set has a listing to plan from meanwhile
     */
    synchronized Duration waitBeforeListing(String scaleSet, int pages, boolean listed) {
        Instant now = clock.instant();
        Instant mine = lastListed.get(scaleSet);
        waiting.put(scaleSet, now);
        Duration wait = max(waitForAzure(), allowanceWait(pages, now));
        if (wait.isZero() && listed && !allowanceWait(2 * pages, now).isZero()
                && olderWaiting(scaleSet, mine, now)) {
            return TURN;
        }
        if (wait.isZero()) {
            reserve(scaleSet, pages, now);
        }
        return wait;
    }

    /**
     * A listing of {@code scaleSet} that must go out whatever the allowance says (to see what a failed call or a
     * growth did): its expected cost is taken now, as a debt that delays the next ones.
     */
    synchronized void owe(String scaleSet, int pages) {
        reserve(scaleSet, pages, clock.instant());
    }

    /** Taken at once, so that pools listing in parallel cannot both spend the same room. */
    private void reserve(String scaleSet, int pages, Instant now) {
        allowances.values().forEach(a -> a.spend(pages, now));
        reserved.merge(scaleSet, pages, Integer::sum);
    }

    private Duration allowanceWait(int pages, Instant now) {
        Duration wait = Duration.ZERO;
        for (Allowance allowance : allowances.values()) {
            wait = max(wait, allowance.until(pages, now));
        }
        return wait;
    }

    /** Whether another scale set listed before {@code mine} (or never) asked for a listing lately. */
    private boolean olderWaiting(String scaleSet, Instant mine, Instant now) {
        for (Map.Entry<String, Instant> other : waiting.entrySet()) {
            if (other.getKey().equals(scaleSet) || other.getValue().isBefore(now.minus(STILL_WAITING))) {
                continue;
            }
            Instant theirs = lastListed.get(other.getKey());
            if (theirs == null || (mine != null && theirs.isBefore(mine))) {
                return true;
            }
        }
        return false;
    }

    /**
     * How long until every listing bucket Azure reported below a quarter is back at half: a listing hpcscale must
     * make (to see what a failed call or a growth did) waits only for this, and its cost is owed to the allowance.
     */
    synchronized Duration waitForAzure() {
        Instant now = clock.instant();
        Duration wait = Duration.ZERO;
        for (Allowance allowance : allowances.values()) {
            Reading reading = reported.get(allowance.bucket.name());
            if (reading != null && reading.remaining() < allowance.bucket.capacity() * LOW_WATER) {
                double toRefill = allowance.bucket.capacity() * REFILLED - reading.remaining();
                Duration refill = Duration.ofMillis((long) (toRefill / allowance.bucket.refillPerSecond() * 1000));
                Instant ready = reading.at().plus(refill);
                wait = max(wait, ready.isAfter(now) ? Duration.between(now, ready) : Duration.ZERO);
            }
        }
        return wait;
    }

    /** A listing of {@code scaleSet} went out and took {@code pages} requests: what was reserved is corrected. */
    synchronized void spentOnListing(String scaleSet, int pages) {
        Instant now = clock.instant();
        int difference = pages - reserved.getOrDefault(scaleSet, 0);
        allowances.values().forEach(a -> a.spend(difference, now));
        reserved.remove(scaleSet);
        lastListed.put(scaleSet, now);
        waiting.remove(scaleSet);
    }

    /**
     * A listing of {@code scaleSet} failed: what was reserved stays spent (some pages went out), and it has had its
     * turn, so that a scale set whose listing keeps failing holds no other back.
     */
    synchronized void listingFailed(String scaleSet) {
        reserved.remove(scaleSet);
        lastListed.put(scaleSet, clock.instant());
        waiting.remove(scaleSet);
    }

    /** Why a listing waits, for messages. */
    static String why(int pages, Duration wait) {
        return "listing it takes " + pages + " request" + (pages == 1 ? "" : "s") + " of Compute's "
                + "HighCostGetVMScaleSet budget, of which hpcscale spends at most half: the next one in "
                + Durations.human(wait);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
