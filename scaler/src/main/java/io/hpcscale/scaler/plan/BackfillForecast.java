package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.JobDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which queued jobs the scheduler's EASY backfilling would not start now even with every node of the pool up
 * ({@code pool.<name>.demand = backfill}): the first job in queue order that does not fit gets a reservation at the
 * earliest time the running jobs' expected ends free enough CPUs for it; a later job that fits starts only if it ends
 * before that time or leaves the reservation enough (Lifka's EASY; Slurm's {@code sched/backfill} and PBS's
 * {@code strict_ordering} with {@code backfill} plan this way from jobs' time limits). Counted in CPUs over the whole
 * pool at its max, which is the nodes' count while every job takes whole nodes ({@link PoolReservation} holds nothing
 * otherwise).
 *
 * <p>What cannot be foreseen errs the same way: a job is held only when it would be held however the unknowns turn
 * out. CPUs whose end is not known exactly (a running job without a limit or a start, a node shared by jobs ending at
 * different times) may free at any time from now to the latest they might, so the reservation lies between two times,
 * and the room and the spare CPUs it leaves between two bounds: a job that might start by the widest bounds is demand,
 * and only one that certainly starts takes room or spare CPUs from the jobs after it. A queued job without a limit may
 * end before the reservation; a job that ran past its limit may end at any time.
 */
final class BackfillForecast {
    /** A queued job in queue order, with the CPUs it takes of the pool. */
    record Queued(String id, long cpus, Duration limit) {
    }

    /**
     * CPUs that running jobs hold, and when the last of them is expected to end.
     *
     * @param at    the latest time they free, or null when that cannot be foreseen
     * @param exact all of them free at {@code at}: one job's, whose end is known
     */
    record Release(long cpus, Instant at, boolean exact) {
    }

    private BackfillForecast() {
    }

    /**
     * @param queue    the queued jobs in the scheduler's order; jobs that can never run in the pool left out
     * @param roomCpus CPUs free now with every node of the pool up: free CPUs of nodes in service, booting nodes and
     *                 those the pool may still start or add
     * @param releases what the running jobs on the pool's nodes hold, and when they are expected to end
     * @param window   how far ahead the scheduler plans: a reservation later than this holds back only its own job
     */
    static Demand.Reservation of(List<Queued> queue, long roomCpus, List<Release> releases, Instant now,
            Duration window) {
        long room = roomCpus;
        List<Release> ends = new ArrayList<>(releases.size() + queue.size());
        for (Release release : releases) {
            // Past its limit, a job is about to end, but when is not known: Slurm's OverTimeLimit and KillWait, a
            // PBS job resumed after a suspension (PBS says no end), run on.
            ends.add(release.at() != null && release.at().isBefore(now)
                    ? new Release(release.cpus(), null, false) : release);
        }
        Set<String> held = new HashSet<>();
        String reservedFor = null;
        Bounds bounds = null;
        for (Queued job : queue) {
            if (reservedFor == null) {
                if (job.cpus() <= room) {
                    room -= job.cpus();
                    ends.add(job.limit() == null ? new Release(job.cpus(), null, false)
                            : new Release(job.cpus(), now.plus(job.limit()), true));
                    continue;
                }
                reservedFor = job.id();
                held.add(job.id());
                bounds = Bounds.of(ends, room, job.cpus(), now, window);
                continue;
            }
            if (!bounds.mayStart(job, now)) {
                held.add(job.id());
            }
        }
        return reservedFor == null ? Demand.Reservation.NONE : new Demand.Reservation(reservedFor, held);
    }

    /**
     * What the reservation leaves later jobs, between what it certainly leaves ({@code least}) and what it might
     * ({@code most}): a job that might start, or might outlast the reservation, takes from the least; one that
     * certainly does, from the most as well.
     */
    private static final class Bounds {
        /** The reservation's latest and earliest times; null: none is foreseen, and no job is held for it. */
        private final Instant latest;
        private final Instant earliest;
        private long mostRoom;
        private long leastRoom;
        private long mostSpare;
        private long leastSpare;

        private Bounds(Instant latest, Instant earliest, long room, long mostSpare, long leastSpare) {
            this.latest = latest;
            this.earliest = earliest;
            this.mostRoom = room;
            this.leastRoom = room;
            this.mostSpare = mostSpare;
            this.leastSpare = leastSpare;
        }

        static Bounds of(List<Release> ends, long room, long cpus, Instant now, Duration window) {
            Instant latest = reservationTime(ends, room, cpus, false, now);
            if (latest == null || latest.isAfter(now.plus(window))) {
                return new Bounds(null, null, room, 0, 0);
            }
            Instant earliest = reservationTime(ends, room, cpus, true, now);
            return new Bounds(latest, earliest, room, spareAt(ends, room, cpus, latest, true),
                    spareAt(ends, room, cpus, earliest, false));
        }

        /** Whether the job might start now; takes what it might or certainly does from the bounds. */
        boolean mayStart(Queued job, Instant now) {
            if (latest == null) {
                return true;
            }
            Instant end = job.limit() == null ? null : now.plus(job.limit());
            boolean mayEndBefore = end == null || !end.isAfter(latest);
            boolean endsBefore = end != null && !end.isAfter(earliest);
            boolean may = job.cpus() <= mostRoom && (mayEndBefore || job.cpus() <= mostSpare);
            boolean will = job.cpus() <= leastRoom && (endsBefore || job.cpus() <= leastSpare);
            if (will) {
                mostRoom -= job.cpus();
                if (!mayEndBefore) {
                    mostSpare -= job.cpus();
                }
            }
            if (may) {
                leastRoom -= job.cpus();
                if (!endsBefore) {
                    leastSpare -= job.cpus();
                }
            }
            return may;
        }
    }

    /**
     * The earliest time the ends free enough CPUs for the job; those not known exactly at their latest, or at the
     * soonest they might ({@code soonest}: now). Null when none does.
     */
    private static Instant reservationTime(List<Release> ends, long room, long cpus, boolean soonest, Instant now) {
        List<Release> times = new ArrayList<>(ends.size());
        for (Release end : ends) {
            times.add(soonest && !end.exact() ? new Release(end.cpus(), now, false) : end);
        }
        times.sort(Comparator.comparing(Release::at, Comparator.nullsLast(Comparator.naturalOrder())));
        long available = room;
        for (Release end : times) {
            if (end.at() == null) {
                return null;
            }
            available += end.cpus();
            if (available >= cpus) {
                return end.at();
            }
        }
        return null;
    }

    /**
     * The CPUs the reservation leaves spare at the given time beyond what the job needs: at most, with those not known
     * exactly counted as free; at least, without them.
     */
    private static long spareAt(List<Release> ends, long room, long cpus, Instant reservation, boolean most) {
        long spare = room - cpus;
        for (Release end : ends) {
            boolean freeBy = end.at() != null && !end.at().isAfter(reservation);
            if (end.exact() ? freeBy : most) {
                spare += end.cpus();
            }
        }
        return spare;
    }

    /**
     * Submission order: first submitted first, then by id, its numbers compared as numbers (job 9 before job 10, array
     * task 5_9 before 5_10); no submission time last. PBS's default order; Slurm's where priority follows age. The
     * scheduler's own priority is not used: Slurm's multifactor priority changes every few minutes, and carrying it
     * would rewrite every queued job's document as often.
     */
    static Comparator<JobDocument> queueOrder() {
        return Comparator.comparing(JobDocument::submittedAt, Comparator.nullsLast(Comparator.naturalOrder()))
                .thenComparing(JobDocument::schedulerId, BackfillForecast::compareIds);
    }

    /**
     * Compares ids run by run: digits by their value, anything else as text. Without allocating: each sort of a pool's
     * queue compares thousands of ids every cycle (a regex here was most of the planner's time in the benchmark).
     */
    static int compareIds(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int runA = run(a, i);
            int runB = run(b, j);
            int order;
            if (digit(a.charAt(i)) && digit(b.charAt(j))) {
                int fromA = skipLeadingZeros(a, i, runA);
                int fromB = skipLeadingZeros(b, j, runB);
                order = runA - fromA != runB - fromB ? Integer.compare(runA - fromA, runB - fromB)
                        : compareRegions(a, fromA, runA, b, fromB, runB);
            } else {
                order = compareRegions(a, i, runA, b, j, runB);
            }
            if (order != 0) {
                return order;
            }
            i = runA;
            j = runB;
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** Where a run of digits starts once its leading zeros are passed; its last digit is kept ("000" is 0). */
    private static int skipLeadingZeros(String text, int from, int end) {
        int at = from;
        while (at < end - 1 && text.charAt(at) == '0') {
            at++;
        }
        return at;
    }

    /** {@code a[fromA, endA)} against {@code b[fromB, endB)} as {@link String#compareTo} orders them. */
    private static int compareRegions(String a, int fromA, int endA, String b, int fromB, int endB) {
        int length = Math.min(endA - fromA, endB - fromB);
        for (int k = 0; k < length; k++) {
            char ca = a.charAt(fromA + k);
            char cb = b.charAt(fromB + k);
            if (ca != cb) {
                return ca - cb;
            }
        }
        return (endA - fromA) - (endB - fromB);
    }

    /** ASCII digits only: other scripts' digits would compare by their code and break the order's transitivity. */
    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Where the run of digits, or of anything else, that starts at {@code from} ends. */
    private static int run(String text, int from) {
        boolean digits = digit(text.charAt(from));
        int end = from;
        while (end < text.length() && digit(text.charAt(end)) == digits) {
            end++;
        }
        return end;
    }
}
