package io.hpcscale.scaler.plan;

import io.hpcscale.common.model.WaitReasonsDocument;
import io.hpcscale.scaler.documents.ScalerStateDocument;
import io.hpcscale.scaler.pool.PoolConfig;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Why the pool's queued jobs get no node this cycle, in words for the users who submitted them
 * ({@link WaitReasonsDocument}). The words name no count or time that moves from one cycle to the next: the scaler
 * writes the document, and the agent each job's comment, only when they change.
 */
final class WaitReasons {
    private WaitReasons() {
    }

    static WaitReasonsDocument of(PoolConfig pool, ScalerStateDocument memory, List<Plan.Note> notes, Demand demand,
            Instant now) {
        Set<EventKind> noted = notes.stream().map(Plan.Note::kind).collect(Collectors.toSet());
        Map<String, String> jobs = new LinkedHashMap<>();
        demand.unsatisfiable().stream().sorted(Comparator.comparing(Demand.Unsatisfiable::jobId))
                .forEach(job -> jobs.put(job.jobId(), "pool " + pool.name() + " cannot run it: " + job.reason()));
        return new WaitReasonsDocument(pool.name(), poolReason(pool, memory, noted, now), jobs);
    }

    /**
     * The first of the reasons that stop every job of the pool, the most lasting first. Protection and backoff are
     * read from the pool's state, not from this cycle's notes: the cycle that starts a protected pool's probe notes
     * nothing, and the pool is no less protected.
     */
    private static String poolReason(PoolConfig pool, ScalerStateDocument memory, Set<EventKind> noted,
            Instant now) {
        String name = "pool " + pool.name();
        if (memory.bootHealth().protectedNow() || noted.contains(EventKind.PROTECTED)) {
            return name + " is protected after repeated failed boots: no node starts until an administrator "
                    + "resumes it";
        }
        if (memory.inBackoff(now)) {
            return name + " starts no node before " + memory.backoffUntil() + " after a failed start"
                    + (memory.backoffReason() == null ? "" : ": " + memory.backoffReason());
        }
        if (noted.contains(EventKind.NOTHING_TO_START)) {
            return name + " has no stopped node left to start, and its provider cannot create more";
        }
        if (noted.contains(EventKind.AT_MAX)) {
            return name + " is at its max of " + pool.max() + " nodes: jobs wait for its nodes to free up";
        }
        return null;
    }
}
