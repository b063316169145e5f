package io.hpcscale.common.agent;

import io.hpcscale.common.model.DrainDocument;
import io.hpcscale.common.model.JobState;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.model.VmDocument;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The agent's answer to what the platform announced for a node ({@link NoticeDocument}): the node is taken out of
 * service as for a drain, for as long as the notice stands; before an eviction or a deletion the jobs on it are
 * requeued, once per event; and once it is out of service and runs nothing, the notice says so, for the node to let
 * the event go ahead.
 */
final class NoticeResponder {
    /** Requeued jobs, by event: a job is put back once per event, even if the scheduler is slow to show it. */
    private final Map<String, Set<String>> requeuedByEvent = new HashMap<>();
    /** Jobs the scheduler refused to requeue once. */
    private final Set<String> refusedOnce = new HashSet<>();

    /**
     * The drain requests to carry out: the scaler's, and one for each noticed node it does not drain. A scaler's
     * request wins, so that its handshake goes on as asked; either keeps the node out of service.
     *
     * @param previous this agent's last vm documents, for the pool a noticed node was reported in
     */
    static Map<String, DrainDocument> drainsWith(Map<String, DrainDocument> scalerDrains,
            Map<String, NoticeDocument> notices, Map<String, VmDocument> previous) {
        if (notices.isEmpty()) {
            return scalerDrains;
        }
        Map<String, DrainDocument> all = new HashMap<>();
        notices.forEach((node, notice) -> {
            VmDocument vm = previous.get(node);
            String pool = vm == null ? notice.poolName() : vm.poolName();
            all.put(node, DrainDocument.request(pool, node, notice.offlineReason(), notice.receivedAt()));
        });
        all.putAll(scalerDrains);
        return all;
    }

    /**
     * The jobs to put back in the queue now: those on a node whose notice means they cannot finish there, once the
     * node is out of service in this read, so that the scheduler cannot put a job straight back on it.
     */
    List<String> toRequeue(Map<String, NoticeDocument> notices, SchedulerSnapshot snapshot) {
        List<String> jobs = new ArrayList<>();
        requeuedByEvent.keySet().retainAll(notices.values().stream().map(NoticeDocument::eventId).toList());
        Set<String> offline = new HashSet<>();
        snapshot.nodes().stream().filter(SchedulerNode::isOffline).forEach(node -> offline.add(node.name()));
        for (SchedulerJob job : snapshot.jobs()) {
            if (job.state() != JobState.Running) {
                continue;
            }
            for (String host : job.hosts()) {
                NoticeDocument notice = notices.get(host);
                if (notice != null && notice.kind().requeues() && offline.contains(host)
                        && !requeuedByEvent.getOrDefault(notice.eventId(), Set.of()).contains(job.id())) {
                    jobs.add(job.id());
                    break;
                }
            }
        }
        return jobs;
    }

    /** Remembers that the job was put back for the events of the nodes it ran on. */
    void requeued(String jobId, Map<String, NoticeDocument> notices, SchedulerSnapshot snapshot) {
        for (SchedulerJob job : snapshot.jobs()) {
            if (job.id().equals(jobId)) {
                for (String host : job.hosts()) {
                    NoticeDocument notice = notices.get(host);
                    if (notice != null) {
                        requeuedByEvent.computeIfAbsent(notice.eventId(), e -> new HashSet<>()).add(jobId);
                    }
                }
            }
        }
    }

    /**
     * The scheduler refused to put the job back: it is tried once more at the next cycle (a command that hung), then
     * given up for this event (a job that must not be rerun is refused every time).
     */
    void refused(String jobId, Map<String, NoticeDocument> notices, SchedulerSnapshot snapshot) {
        if (!refusedOnce.add(jobId)) {
            requeued(jobId, notices, snapshot);
        }
    }

    /**
     * The notices to mark ready: the node is out of service by hpcscale's mark and no job of any state names it, in a
     * read taken after the offline.
     */
    static List<NoticeDocument> nowReady(Map<String, NoticeDocument> notices, SchedulerSnapshot snapshot,
            Instant now) {
        Set<String> occupied = new HashSet<>();
        snapshot.jobs().stream().filter(job -> job.state() != JobState.Finished && job.state() != JobState.Failed)
                .forEach(job -> occupied.addAll(job.hosts()));
        List<NoticeDocument> ready = new ArrayList<>();
        for (SchedulerNode node : snapshot.nodes()) {
            NoticeDocument notice = notices.get(node.name());
            if (notice == null || notice.readyAt() != null || !notice.kind().acknowledgedWhenEmpty()) {
                continue;
            }
            if (node.offlineByHpcscale() && node.jobIds().isEmpty() && !occupied.contains(node.name())) {
                ready.add(notice.readyAt(now));
            }
        }
        return ready;
    }
}
