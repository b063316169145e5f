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
 * <p>What was shown is kept in memory only: an agent that restarts shows each reason once more, which costs one
 * command a job and tells the users nothing false.
 */
final class WaitReasonsShown {
    private static final Logger log = LoggerFactory.getLogger(WaitReasonsShown.class);
    /** A job queued this briefly is about to start on a node already up: a pool-wide reason would only be noise. */
    static final Duration GRACE = Duration.ofMinutes(1);
    static final int PER_CYCLE = 50;
    /** What users see before the reason, so that they know who says it. */
    static final String PREFIX = "hpcscale: ";

    private record Shown(String reason, Instant at) {
    }

    private final SchedulerAdapter adapter;
    private final PoolMap pools;
    private final Map<String, Shown> shown = new HashMap<>();

    WaitReasonsShown(SchedulerAdapter adapter, PoolMap pools) {
        this.adapter = adapter;
        this.pools = pools;
    }

    /**
     * Brings what each job shows up to date with the pools' reasons.
     *
     * @param reasons the pools' reasons as last read, by pool; a pool without one has nothing to say
     * @return what failed, one line a job
     */
    List<String> show(Map<String, WaitReasonsDocument> reasons, SchedulerSnapshot snapshot, Instant now)
            throws InterruptedException {
        Set<String> present = snapshot.jobs().stream().map(SchedulerJob::id).collect(Collectors.toSet());
        shown.keySet().retainAll(present);
        Duration lasts = adapter.waitReasonLasts();
        List<String> problems = new ArrayList<>();
        int commands = 0;
        for (SchedulerJob job : snapshot.jobs()) {
            String wanted = wanted(job, reasons, now);
            Shown current = shown.get(job.id());
            boolean change = wanted == null ? current != null
                    : current == null || !wanted.equals(current.reason())
                            || lasts != null && !now.isBefore(current.at().plus(lasts));
            if (!change) {
                continue;
            }
            if (commands++ == PER_CYCLE) {
                log.debug("more jobs wait for a new reason than one cycle shows: the rest next cycle");
                break;
            }
            try {
                adapter.showWaitReason(job.id(), wanted);
                if (wanted == null) {
                    shown.remove(job.id());
                } else {
                    shown.put(job.id(), new Shown(wanted, now));
                    log.atInfo().addKeyValue(LogFields.ACTION, "wait-reason").log("job {} shows: {}", job.id(),
                            wanted);
                }
            } catch (SchedulerCommandException e) {
                problems.add("showing job " + job.id() + " why it waits failed: " + e.getMessage());
            }
        }
        return problems;
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
