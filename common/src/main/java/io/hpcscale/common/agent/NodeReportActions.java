package io.hpcscale.common.agent;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.EtagConflictException;
import io.hpcscale.common.store.PartitionReads;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the agent does with what the nodes wrote themselves ({@link NodeReports}): it puts back in the queue the jobs
 * of nodes the platform is about to take, tells a noticed node that is out of service and empty that it may let its
 * event go ahead, and marks a failed health check held once its node is out of service. It keeps the reports as last
 * read, with the ETags its conditional writes need, and reads them by their changes ({@link PartitionReads}).
 */
final class NodeReportActions {
    private static final Logger log = LoggerFactory.getLogger(NodeReportActions.class);

    private final SchedulerAdapter adapter;
    private final DocumentStore store;
    /** The nodes' own reports in {@code _meta}, read by their changes; whole hourly, as the scaler reads its pools. */
    private final PartitionReads reads;
    private final NoticeResponder noticeResponder = new NoticeResponder();
    private NodeReports read = NodeReports.NONE;

    NodeReportActions(SchedulerAdapter adapter, DocumentStore store) {
        this.adapter = adapter;
        this.store = store;
        // The agent gives each read its cycle's time; the clock is not asked.
        this.reads = new PartitionReads(store, Clock.systemUTC(), Duration.ofHours(1));
    }

    /** Reads what changed in the nodes' reports since the last read; the whole of them once an hour. */
    void reread(Instant now) {
        reads.beginCycle();
        read = NodeReports.read(store, reads, now);
    }

    Map<String, NoticeDocument> notices() {
        return read.noticesByNode();
    }

    Map<String, HealthDocument> health() {
        return read.healthByNode();
    }

    /**
     * Puts back in the queue the jobs of nodes the platform is about to take, once per event; true when it put one
     * back, so the scheduler must be read again.
     *
     * @param requeued the jobs put back, added to
     * @param problems what failed, added to
     */
    boolean requeue(SchedulerSnapshot snapshot, List<String> requeued, List<String> problems)
            throws InterruptedException {
        Map<String, NoticeDocument> notices = notices();
        boolean changed = false;
        for (String job : noticeResponder.toRequeue(notices, snapshot)) {
            try {
                if (adapter.requeue(job)) {
                    requeued.add(job);
                    changed = true;
                    log.atInfo().addKeyValue(LogFields.ACTION, "requeue").addKeyValue(LogFields.OUTCOME, "ok")
                            .log("job {} put back in its queue: the platform is about to take a node it runs on",
                                    job);
                }
                noticeResponder.requeued(job, notices, snapshot);
            } catch (SchedulerCommandException e) {
                problems.add("requeueing job " + job + " failed: " + e.getMessage());
                log.atWarn().addKeyValue(LogFields.ACTION, "requeue")
                        .addKeyValue(LogFields.OUTCOME, "failed: " + e.getMessage())
                        .log("job {} could not be put back in its queue before its node goes: {}; the scheduler "
                                + "requeues it, if the job allows, once the node stops answering", job,
                                e.getMessage());
                noticeResponder.refused(job, notices, snapshot);
            }
        }
        return changed;
    }

    /**
     * Tells each noticed node that is out of service and empty that it may let its event go ahead, with a write
     * conditional on the notice being the one read: a node that rewrote or removed it meanwhile is left alone.
     *
     * @return false when a node changed its notice meanwhile, so the reports must be read again
     */
    boolean markReady(SchedulerSnapshot snapshot, Instant now) {
        boolean current = true;
        for (NoticeDocument ready : NoticeResponder.nowReady(notices(), snapshot, now)) {
            try {
                String etag = store.replaceIfMatch(ready, read.notices().get(ready.name()).etag());
                read = read.withNotice(ready, etag);
                log.info("node={} is out of service and runs no job: it may let its {} go ahead", ready.name(),
                        ready.rawType());
            } catch (EtagConflictException e) {
                log.debug("node={} changed its notice meanwhile: read again next cycle", ready.name());
                current = false;
            }
        }
        return current;
    }

    /**
     * For each node whose check failed and that is now out of service: its offline reason is made the check's
     * failure (it may have been taken out while the check ran), and the check marked held, so the node lets its
     * scheduler daemon start. Conditional on the check being the one read.
     *
     * @param problems what failed, added to
     * @return false when a node wrote its check again meanwhile, so the reports must be read again
     */
    boolean markHeld(SchedulerSnapshot snapshot, Instant now, List<String> problems) throws InterruptedException {
        boolean current = true;
        for (HealthDocument failed : HealthGate.nowHeld(health(), snapshot).values()) {
            SchedulerNode node = snapshot.nodes().stream().filter(n -> n.name().equals(failed.name()))
                    .findFirst().orElseThrow();
            try {
                if (node.offlineByHpcscale()) {
                    adapter.offline(failed.name(), failed.holdReason());
                }
                HealthDocument held = failed.heldAt(now);
                String etag = store.replaceIfMatch(held, read.health().get(failed.name()).etag());
                read = read.withHealth(held, etag);
                log.atWarn().addKeyValue(LogFields.NODE, failed.name()).addKeyValue(LogFields.ACTION, "hold")
                        .log("node={} held out of service: {}", failed.name(), failed.holdReason());
            } catch (SchedulerCommandException e) {
                problems.add("holding node " + failed.name() + " out of service failed: " + e.getMessage());
            } catch (EtagConflictException e) {
                log.debug("node={} wrote its health check again meanwhile: read again next cycle", failed.name());
                current = false;
            }
        }
        return current;
    }
}
