package io.hpcscale.common.agent;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.WaitReasonsDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows the users of each queued job why it gets no node, where they look ({@link SchedulerAdapter#showWaitReason}),
 * from what the scaler found ({@link WaitReasonsDocument}): only when the reason changes, or when the scheduler has
 * had time to replace it ({@link SchedulerAdapter#waitReasonLasts}), and at most {@link #PER_CYCLE} commands a cycle,
 * so a pool of thousands of queued jobs that becomes protected is told over a few cycles rather than in a burst of
 * scheduler commands. A job that starts within {@link #GRACE} of its submission is never told a reason that holds
 * for the whole pool; a job that starts, or whose reason went, has what hpcscale showed taken back.
 *
 * <p>What was shown is kept in memory, and learnt again after a restart where the scheduler's read shows the field
 * ({@link SchedulerAdapter#waitReasonFields}: Slurm's AdminComment), so that a reason written before the restart is
 * taken back when it no longer holds; a field holding someone else's text is left alone. Where the read does not show
 * it (PBS, whose scheduler writes over the comment anyway; Kubernetes, whose events expire), a restarted agent shows
 * each reason once more.
 */
final class WaitReasonsShown {
    private static final Logger log = LoggerFactory.getLogger(WaitReasonsShown.class);
    /** A job queued this briefly is about to start on a node already up: a pool-wide reason would only be noise. */
    static final Duration GRACE = Duration.ofMinutes(1);
    static final int PER_CYCLE = 50;
    /** How long a job whose command failed waits before it is tried again. */
    static final Duration AFTER_FAILURE = Duration.ofMinutes(10);
    /** What users see before the reason, so that they know who says it. */
    static final String PREFIX = "hpcscale: ";

    private record Shown(String reason, Instant at) {
    }

    /** A command to give: the job's reason, or null to take it back. */
    private record Change(String jobId, String reason) {
    }

    private final SchedulerAdapter adapter;
    private final PoolMap pools;
    private final Map<String, Shown> shown = new HashMap<>();
    /** Jobs whose last command failed, and when. */
    private final Map<String, Instant> failedAt = new HashMap<>();

    WaitReasonsShown(SchedulerAdapter adapter, PoolMap pools) {
        this.adapter = adapter;
        this.pools = pools;
    }

    /**
     * Brings what each job shows up to date with the pools' reasons: first the jobs that show nothing yet or a reason
     * that changed, then those whose reason the scheduler may have replaced. A command that fails ends the cycle's
     * commands (the scheduler is likely refusing them all: no right, a server down or slow) and that job waits
     * {@link #AFTER_FAILURE} before it is tried again, so one job the scheduler refuses holds up no other.
     *
     * @param reasons the pools' reasons as last read, by pool; a pool without one has nothing to say
     * @return what failed, in one line, or nothing
     */
    Optional<String> show(Map<String, WaitReasonsDocument> reasons, SchedulerSnapshot snapshot, Instant now)
            throws InterruptedException {
        Set<String> present = snapshot.jobs().stream().map(SchedulerJob::id).collect(Collectors.toSet());
        shown.keySet().retainAll(present);
        failedAt.keySet().retainAll(present);
        Duration lasts = adapter.waitReasonLasts();
        Map<String, String> fields = adapter.waitReasonFields();
        List<Change> changes = new ArrayList<>();
        List<Change> refreshes = new ArrayList<>();
        for (SchedulerJob job : snapshot.jobs()) {
            Instant failed = failedAt.get(job.id());
            if (failed != null && now.isBefore(failed.plus(AFTER_FAILURE))) {
                continue;
            }
            String field = fields.get(job.id());
            if (field != null && !field.startsWith(PREFIX)) {
                // Someone else's comment on the job: hpcscale neither writes over it nor clears it.
                shown.remove(job.id());
                continue;
            }
            if (field != null && !shown.containsKey(job.id())) {
                // Written before this agent started: known as shown, so that it is taken back when it no longer holds.
                shown.put(job.id(), new Shown(field, now));
            }
            String wanted = wanted(job, reasons, now);
            Shown current = shown.get(job.id());
            if (wanted == null ? current != null : current == null || !wanted.equals(current.reason())) {
                changes.add(new Change(job.id(), wanted));
            } else if (wanted != null && lasts != null && !now.isBefore(current.at().plus(lasts))) {
                refreshes.add(new Change(job.id(), wanted));
            }
        }
        changes.addAll(refreshes);
        int done = 0;
        for (Change change : changes.subList(0, Math.min(PER_CYCLE, changes.size()))) {
            try {
                adapter.showWaitReason(change.jobId(), change.reason());
            } catch (SchedulerCommandException e) {
                failedAt.put(change.jobId(), now);
                return Optional.of("showing job " + change.jobId() + " why it waits failed: " + e.getMessage()
                        + (changes.size() - done > 1 ? "; " + (changes.size() - done - 1) + " more jobs are told "
                                + "at the next cycles" : ""));
            }
            done++;
            if (change.reason() == null) {
                shown.remove(change.jobId());
            } else {
                shown.put(change.jobId(), new Shown(change.reason(), now));
                log.atInfo().addKeyValue(LogFields.ACTION, "wait-reason").log("job {} shows: {}", change.jobId(),
                        change.reason());
            }
        }
        if (changes.size() > PER_CYCLE) {
            log.debug("{} jobs wait for a reason to be shown: the rest at the next cycles", changes.size() - done);
        }
        return Optional.empty();
    }

    /**
     * The reason the job should show: one of its own, else its pool's once it waited past {@link #GRACE}; none when
     * one of the pools it counts for has nothing stopping it.
     */
    private String wanted(SchedulerJob job, Map<String, WaitReasonsDocument> reasons, Instant now) {
        if (job.state() != JobState.Queued) {
            return null;
        }
        String first = null;
        boolean ownFirst = false;
        for (String pool : pools.poolsForJob(job.queues())) {
            WaitReasonsDocument pooled = reasons.getOrDefault(pool, WaitReasonsDocument.none(pool));
            String said = pooled.reasonFor(job.id());
            if (said == null) {
                return null;
            }
            if (first == null) {
                first = said;
                ownFirst = pooled.jobs().containsKey(job.id());
            }
        }
        boolean waitedPastGrace = job.submittedAt() == null || !now.isBefore(job.submittedAt().plus(GRACE));
        return first != null && (ownFirst || waitedPastGrace) ? PREFIX + first : null;
    }
}
