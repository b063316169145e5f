package io.hpcscale.scaler.documents;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * What a pool has seen of when its work arrives and how long its nodes take to boot: what its adaptive idle timeout is
 * chosen from. It lives in the scaler's state, so that a restarted scaler keeps what it learnt.
 *
 * @param lastArrivalAt the latest submission seen, or null before the first
 * @param arrivalGaps   seconds between successive submissions, the most recent {@link #GAPS_KEPT}; submissions at the
 *                      same second count once
 * @param bootSeconds   how long the pool's most recent {@link #BOOTS_KEPT} boots that hpcscale asked for took, from
 *                      the start call to the node reporting
 */
public record IdleLearning(Instant lastArrivalAt, List<Long> arrivalGaps, List<Long> bootSeconds) {
    /** Enough to see a day's rhythm at a few jobs an hour, few enough to follow a change within a day or two. */
    public static final int GAPS_KEPT = 200;
    public static final int BOOTS_KEPT = 20;
    public static final IdleLearning NONE = new IdleLearning(null, List.of(), List.of());
    /** Submissions further ahead of the scaler's clock than this are not learnt from. */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

    public IdleLearning {
        arrivalGaps = List.copyOf(arrivalGaps);
        bootSeconds = List.copyOf(bootSeconds);
    }

    /**
     * These learnings with the submissions seen this cycle. Only submissions after the last one seen count: those
     * before were counted already, or were queued before the scaler first looked, when their gaps say nothing of the
     * rhythm of arrivals. Submissions more than {@link #CLOCK_SKEW} after {@code now} are left out.
     */
    public IdleLearning withSubmissions(Collection<Instant> submitted, Instant now) {
        TreeSet<Long> seconds = new TreeSet<>();
        long after = lastArrivalAt == null ? Long.MIN_VALUE : lastArrivalAt.getEpochSecond();
        long latest = after;
        for (Instant at : submitted) {
            if (at.isAfter(now.plus(CLOCK_SKEW))) {
                // A scheduler's clock far ahead of the scaler's: taken as the last arrival, it would hide every
                // arrival until the scaler's clock caught up.
                continue;
            }
            latest = Math.max(latest, at.getEpochSecond());
            if (lastArrivalAt != null && at.getEpochSecond() > after) {
                seconds.add(at.getEpochSecond());
            }
        }
        if (latest == after) {
            return this;
        }
        List<Long> gaps = new ArrayList<>(arrivalGaps);
        long previous = after;
        for (long at : seconds) {
            gaps.add(at - previous);
            previous = at;
        }
        return new IdleLearning(Instant.ofEpochSecond(latest), lastOf(gaps, GAPS_KEPT), bootSeconds);
    }

    public IdleLearning withBoot(Duration took) {
        List<Long> boots = new ArrayList<>(bootSeconds);
        boots.add(Math.max(0, took.toSeconds()));
        return new IdleLearning(lastArrivalAt, arrivalGaps, lastOf(boots, BOOTS_KEPT));
    }

    private static List<Long> lastOf(List<Long> values, int keep) {
        return values.size() <= keep ? values : values.subList(values.size() - keep, values.size());
    }
}
