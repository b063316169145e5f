package io.hpcscale.common.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Why the pool's queued jobs get no node, as the scaler found at its last cycle, for the agent to show where users
 * look (Slurm's {@code AdminComment}, the PBS job comment, an Event on the Kubernetes pod). One per pool, in its
 * partition, written by the scaler only when a reason changes.
 *
 * @param reason why none of the pool's queued jobs gets a new node (the pool is protected, in backoff, at its max,
 *               has nothing left to start, or its instances cannot be listed), or null when nothing stops it
 * @param jobs   reasons that hold for one job only (it asks for more than the pool's nodes have), by the
 *               scheduler's job id; at most {@link #MAX_JOBS}, since every byte is paid for at each write
 */
public record WaitReasonsDocument(String poolName, String reason, Map<String, String> jobs)
        implements ClusterLoadDocument {

    public static final String ID = "wait-reasons";
    /** The jobs with a reason of their own that one document names; the rest go without. */
    public static final int MAX_JOBS = 100;
    /** The longest reason kept: the scheduler's comment fields are short, and PBS cuts longer ones. */
    public static final int MAX_REASON = 250;

    public WaitReasonsDocument {
        Objects.requireNonNull(poolName, "poolName");
        reason = cut(reason);
        Map<String, String> kept = new LinkedHashMap<>();
        for (Map.Entry<String, String> job : jobs.entrySet()) {
            if (kept.size() == MAX_JOBS) {
                break;
            }
            kept.put(job.getKey(), cut(job.getValue()));
        }
        jobs = Map.copyOf(kept);
    }

    public static WaitReasonsDocument none(String poolName) {
        return new WaitReasonsDocument(poolName, null, Map.of());
    }

    public static DocumentKey keyFor(String poolName) {
        return new DocumentKey(poolName, ID);
    }

    /** Why this job gets no node: its own reason, else the pool's; null when nothing stops it. */
    public String reasonFor(String jobId) {
        String own = jobs.get(jobId);
        return own != null ? own : reason;
    }

    public boolean empty() {
        return reason == null && jobs.isEmpty();
    }

    /**
     * One line, at most {@link #MAX_REASON} long: a cloud's error may run over several lines, and a scheduler's
     * comment field shows one.
     */
    private static String cut(String text) {
        if (text == null) {
            return null;
        }
        String line = text.strip().replaceAll("\\s+", " ");
        return line.length() <= MAX_REASON ? line : line.substring(0, MAX_REASON - 3) + "...";
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public DocumentType type() {
        return DocumentType.WAIT_REASONS;
    }
}
