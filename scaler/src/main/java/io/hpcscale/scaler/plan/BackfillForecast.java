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
 * pool at its max, so fragmentation across nodes is not seen: that errs towards starting jobs, never against.
 *
 * <p>What cannot be foreseen errs the same way. CPUs whose end is not known exactly (a running job without a limit or
 * a start, a node shared by jobs ending at different times) free at the latest time they might, which can only put
 * the reservation later, so that more jobs end before it; and they count as spare for the reservation, as they may
 * be free by its true time, so that no job is held that the reservation might leave room for. A queued job without a
 * limit is taken to end before the reservation; a job that ran past its limit ends now.
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
            ends.add(release.at() != null && release.at().isBefore(now)
                    ? new Release(release.cpus(), now, release.exact()) : release);
        }
        Set<String> held = new HashSet<>();
        String reservedFor = null;
        Instant shadow = null;
        long extra = 0;
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
                shadow = reservationTime(ends, room, job.cpus());
                if (shadow != null && shadow.isAfter(now.plus(window))) {
                    shadow = null;
                }
                extra = shadow == null ? 0 : spareAt(ends, room, job.cpus(), shadow);
                continue;
            }
            boolean endsBeforeReservation = shadow == null || job.limit() == null
                    || !now.plus(job.limit()).isAfter(shadow);
            if (job.cpus() <= room && (endsBeforeReservation || job.cpus() <= extra)) {
                if (!endsBeforeReservation) {
                    extra -= job.cpus();
                }
                room -= job.cpus();
            } else {
                held.add(job.id());
            }
        }
        return reservedFor == null ? Demand.Reservation.NONE : new Demand.Reservation(reservedFor, held);
    }

    /** The earliest time the ends free enough CPUs for the job, each at its latest; null when none does. */
    private static Instant reservationTime(List<Release> ends, long room, long cpus) {
        ends.sort(Comparator.comparing(Release::at, Comparator.nullsLast(Comparator.naturalOrder())));
        long available = room;
        for (Release end : ends) {
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
     * The most CPUs the reservation may leave spare: those free at its time beyond what the job needs, and those whose
     * end is not known exactly and may be free by then.
     */
    private static long spareAt(List<Release> ends, long room, long cpus, Instant reservation) {
        long spare = room - cpus;
        for (Release end : ends) {
            if (end.at() != null && !end.at().isAfter(reservation)) {
                spare += end.cpus();
            } else if (!end.exact()) {
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

    /** Compares ids run by run: digits by their value, anything else as text. */
    static int compareIds(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int runA = run(a, i);
            int runB = run(b, j);
            String partA = a.substring(i, runA);
            String partB = b.substring(j, runB);
            int order;
            if (Character.isDigit(a.charAt(i)) && Character.isDigit(b.charAt(j))) {
                String digitsA = partA.replaceFirst("^0+(?=.)", "");
                String digitsB = partB.replaceFirst("^0+(?=.)", "");
                order = digitsA.length() != digitsB.length() ? Integer.compare(digitsA.length(), digitsB.length())
                        : digitsA.compareTo(digitsB);
            } else {
                order = partA.compareTo(partB);
            }
            if (order != 0) {
                return order;
            }
            i = runA;
            j = runB;
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** Where the run of digits, or of anything else, that starts at {@code from} ends. */
    private static int run(String text, int from) {
        boolean digits = Character.isDigit(text.charAt(from));
        int end = from;
        while (end < text.length() && Character.isDigit(text.charAt(end)) == digits) {
            end++;
        }
        return end;
    }
}
