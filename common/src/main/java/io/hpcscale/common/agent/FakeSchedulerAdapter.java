package io.hpcscale.common.agent;

import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NodeJobStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A scheduler held in memory, the fake beside {@link SchedulerAdapter}. Offlining and returning nodes change its
 * nodes the way a real scheduler would, and reads can be made to fail.
 */
public final class FakeSchedulerAdapter implements SchedulerAdapter {
    private final Map<String, SchedulerJob> jobs = new LinkedHashMap<>();
    private final Map<String, SchedulerNode> nodes = new LinkedHashMap<>();
    private final List<String> commands = new ArrayList<>();
    private final Map<String, String> reasons = new HashMap<>();
    private Set<String> unreadableJobIds = Set.of();
    private String readFailure;
    private String commandFailure;
    private int reads;

    @Override
    public String scheduler() {
        return "fake";
    }

    public synchronized FakeSchedulerAdapter putJob(SchedulerJob job) {
        jobs.put(job.id(), job);
        return this;
    }

    public synchronized FakeSchedulerAdapter removeJob(String id) {
        jobs.remove(id);
        return this;
    }

    public synchronized FakeSchedulerAdapter putNode(SchedulerNode node) {
        nodes.put(node.name(), node);
        return this;
    }

    public synchronized FakeSchedulerAdapter removeNode(String name) {
        nodes.remove(name);
        return this;
    }

    public synchronized SchedulerNode node(String name) {
        return nodes.get(name);
    }

    /** Jobs that the scheduler lists but that cannot be read, as a malformed qstat entry would be. */
    public synchronized FakeSchedulerAdapter unreadableJobs(Set<String> ids) {
        unreadableJobIds = Set.copyOf(ids);
        return this;
    }

    /** Makes reads fail with this message; null makes them work again. */
    public synchronized FakeSchedulerAdapter failReads(String message) {
        readFailure = message;
        return this;
    }

    /** Makes offline and bring-back commands fail with this message; null makes them work again. */
    public synchronized FakeSchedulerAdapter failCommands(String message) {
        commandFailure = message;
        return this;
    }

    /** Commands received, as "offline node comment", "bringBack node", "requeue job" and "reason job text". */
    public synchronized List<String> commands() {
        return List.copyOf(commands);
    }

    public synchronized int reads() {
        return reads;
    }

    @Override
    public synchronized SchedulerSnapshot read() throws SchedulerReadException {
        reads++;
        if (readFailure != null) {
            throw new SchedulerReadException(readFailure);
        }
        List<SchedulerJob> readable = jobs.values().stream().filter(j -> !unreadableJobIds.contains(j.id())).toList();
        return new SchedulerSnapshot(readable, List.copyOf(nodes.values()), unreadableJobIds, Set.of());
    }

    /** The ids of the queued jobs, as a real scheduler's queue summary would change with them. */
    @Override
    public synchronized Optional<String> quickSignature() throws SchedulerReadException {
        if (readFailure != null) {
            throw new SchedulerReadException(readFailure);
        }
        return Optional.of(jobs.values().stream().filter(j -> j.state() == JobState.Queued).map(SchedulerJob::id)
                .sorted().collect(Collectors.joining(",")));
    }

    @Override
    public synchronized void offline(String name, String reason) throws SchedulerCommandException {
        String comment = OfflineMarker.comment(reason, 200);
        commands.add("offline " + name + " " + comment);
        checkCommand(name);
        SchedulerNode n = nodes.get(name);
        nodes.put(name, withOffline(n, true, OfflineMarker.isOurs(comment)));
    }

    @Override
    public synchronized void bringBack(String name) throws SchedulerCommandException {
        commands.add("bringBack " + name);
        checkCommand(name);
        nodes.put(name, withOffline(nodes.get(name), false, false));
    }

    /** Puts the job back in the queue, off its nodes, as {@code qrerun} or {@code scontrol requeue} do. */
    @Override
    public synchronized boolean requeue(String jobId) throws SchedulerCommandException {
        commands.add("requeue " + jobId);
        if (commandFailure != null) {
            throw new SchedulerCommandException(commandFailure, null);
        }
        SchedulerJob job = jobs.get(jobId);
        if (job == null) {
            throw new SchedulerCommandException("no job " + jobId, null);
        }
        for (String host : job.hosts()) {
            SchedulerNode node = nodes.get(host);
            if (node != null) {
                List<String> left = new ArrayList<>(node.jobIds());
                left.remove(jobId);
                nodes.put(host, withJobs(node, left));
            }
        }
        jobs.put(jobId, new SchedulerJob(job.id(), job.queues(), JobState.Queued, job.chunks(), job.nodes(),
                job.placement(), job.exclusive(), job.submittedAt(), List.of(), null, job.asks()));
        return true;
    }

    /** Keeps the reason as the job's comment, as Slurm keeps an {@code AdminComment}; null clears it. */
    @Override
    public synchronized void showWaitReason(String jobId, String reason) throws SchedulerCommandException {
        commands.add("reason " + jobId + " " + reason);
        if (commandFailure != null) {
            throw new SchedulerCommandException(commandFailure, null);
        }
        if (!jobs.containsKey(jobId)) {
            throw new SchedulerCommandException("no job " + jobId, null);
        }
        if (reason == null) {
            reasons.remove(jobId);
        } else {
            reasons.put(jobId, reason);
        }
    }

    /** As on Slurm: a reason stays until changed. */
    @Override
    public Duration waitReasonLasts() {
        return null;
    }

    /** What the job shows its users, or null. */
    public synchronized String reasonShown(String jobId) {
        return reasons.get(jobId);
    }

    /** Someone writes this comment on the job, as an administrator does with scontrol. */
    public synchronized FakeSchedulerAdapter comment(String jobId, String text) {
        reasons.put(jobId, text);
        return this;
    }

    /** The comments as a read shows them, as Slurm's AdminComment. */
    @Override
    public synchronized Map<String, String> waitReasonFields() {
        return Map.copyOf(reasons);
    }

    private void checkCommand(String name) throws SchedulerCommandException {
        if (commandFailure != null) {
            throw new SchedulerCommandException(commandFailure, null);
        }
        if (!nodes.containsKey(name)) {
            throw new SchedulerCommandException("no node named " + name, null);
        }
    }

    /** A free, online node with this shape in this queue. */
    public static SchedulerNode freeNode(String name, String queue, int cpus) {
        return new SchedulerNode(name, List.of(queue), NodeJobStatus.Free, "free", OfflineMark.NONE, false, false,
                cpus, 0, cpus * 4096L, 0, 0, 0, List.of(), null);
    }

    /** The node with a job list; busy when the list is not empty. */
    public static SchedulerNode withJobs(SchedulerNode n, List<String> jobIds) {
        NodeJobStatus status = jobIds.isEmpty() ? NodeJobStatus.Free : NodeJobStatus.Busy;
        return new SchedulerNode(n.name(), n.queues(), status, jobIds.isEmpty() ? "free" : "job-busy", n.offline(),
                n.down(), n.exclusive(), n.cpusTotal(), jobIds.isEmpty() ? 0 : n.cpusTotal(), n.memoryMb(),
                n.memoryMbUsed(), n.gpus(), n.gpusUsed(), jobIds, n.lastUsedAt());
    }

    public static SchedulerNode withDown(SchedulerNode n, boolean down) {
        return new SchedulerNode(n.name(), n.queues(), n.jobStatus(), down ? "down" : n.rawState(), n.offline(),
                down, n.exclusive(), n.cpusTotal(), n.cpusUsed(), n.memoryMb(), n.memoryMbUsed(), n.gpus(),
                n.gpusUsed(), n.jobIds(), n.lastUsedAt());
    }

    public static SchedulerNode withOffline(SchedulerNode n, boolean offline, boolean byHpcscale) {
        return withMark(n, !offline ? OfflineMark.NONE : byHpcscale ? OfflineMark.HPCSCALE : OfflineMark.OTHER);
    }

    /** The node with this mark, as a scheduler would show it; {@code UNMARKED} is PBS after a server restart. */
    public static SchedulerNode withMark(SchedulerNode n, OfflineMark mark) {
        return new SchedulerNode(n.name(), n.queues(), n.jobStatus(), mark.offline() ? "offline" : "free", mark,
                n.down(), n.exclusive(), n.cpusTotal(), n.cpusUsed(), n.memoryMb(), n.memoryMbUsed(), n.gpus(),
                n.gpusUsed(), n.jobIds(), n.lastUsedAt());
    }
}
