package io.hpcscale.cloud.azure.events;

import io.hpcscale.cloud.azure.events.ScheduledEventsEndpoint.EndpointException;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this node's {@link NoticeDocument} in step with the Scheduled Events that name its VM, and lets an event go
 * ahead once the agent marked the node ready. The endpoint is local and free, so it is polled often; the store is
 * touched only when something changes, to see readiness while an event waits for it, and to renew a notice before
 * it expires: a thousand idle nodes cost the store nothing.
 *
 * <p>Unknown is not zero: a poll that fails leaves the notice as it is, for as long as the endpoint does not answer.
 */
public final class NodeNotices {
    private static final Logger log = LoggerFactory.getLogger(NodeNotices.class);
    /** Readiness is looked for at most this often while an event waits for it: one point read each time. */
    static final Duration READY_CHECK = Duration.ofSeconds(15);

    private final ScheduledEventsEndpoint endpoint;
    private final DocumentStore store;
    private final String nodeName;
    private final String vmName;
    private final Set<String> acknowledged = new HashSet<>();

    private boolean loaded;
    /** The notice changed and the marker the agent watches has not moved since: moved at every poll until it has. */
    private boolean markerPending;
    private NoticeDocument written;
    private Instant writtenAt;
    private Instant readyCheckedAt;

    /**
     * @param nodeName the node's name in the scheduler, as the agent reports it
     * @param vmName   the VM's name as Scheduled Events list it ({@code compute.name} of the instance metadata)
     */
    public NodeNotices(ScheduledEventsEndpoint endpoint, DocumentStore store, String nodeName, String vmName) {
        this.endpoint = endpoint;
        this.store = store;
        this.nodeName = nodeName;
        this.vmName = vmName;
    }

    /** What one poll did, for the log and the tests. */
    public enum Outcome {
        NOTHING, WRITTEN, REMOVED, ACKNOWLEDGED, FAILED
    }

    public Outcome poll(Instant now) throws InterruptedException {
        List<ScheduledEvent> events;
        try {
            events = endpoint.read();
        } catch (EndpointException e) {
            log.warn("{}; the notice stays as it is", e.getMessage());
            return Outcome.FAILED;
        }
        try {
            loadOnce();
            if (markerPending) {
                moveMarker(now);
            }
            Optional<ScheduledEvent> event = gravest(events);
            if (event.isEmpty()) {
                return written == null ? Outcome.NOTHING : remove(now);
            }
            NoticeDocument wanted = NoticeDocument.of(nodeName, event.get().eventId(), event.get().eventType(),
                    event.get().notBefore(), event.get().description(), now);
            if (!wanted.sameEvent(written)) {
                return write(wanted, now);
            }
            if (now.isAfter(writtenAt.plus(NoticeDocument.KEPT.dividedBy(2)))) {
                return renew(wanted, now);
            }
            return acknowledgeIfReady(now, event.get().started());
        } catch (StoreException e) {
            log.warn("the store did not answer ({}); the notice is written at the next poll", e.getMessage());
            loaded = false;
            return Outcome.FAILED;
        }
    }

    private void loadOnce() {
        if (loaded) {
            return;
        }
        written = store.read(NoticeDocument.keyFor(nodeName), NoticeDocument.class)
                .map(DocumentStore.Versioned::document).orElse(null);
        writtenAt = written == null ? null : written.receivedAt();
        loaded = true;
    }

    /** The most disruptive event naming this VM; the others wait for it to end. */
    private Optional<ScheduledEvent> gravest(List<ScheduledEvent> events) {
        ScheduledEvent gravest = null;
        for (ScheduledEvent event : events) {
            if (event.affects(vmName) && (gravest == null || NoticeDocument.Kind.of(event.eventType())
                    .graverThan(NoticeDocument.Kind.of(gravest.eventType())))) {
                gravest = event;
            }
        }
        return Optional.ofNullable(gravest);
    }

    private Outcome write(NoticeDocument notice, Instant now) {
        store.upsert(List.of(notice));
        log.info("Azure announces {} {} for this VM ({}{}): the agent takes node {} out of service{}",
                    notice.rawType(), notice.eventId(), notice.notBefore() == null ? "under way"
                            : "not before " + notice.notBefore(), notice.description() == null
                            || notice.description().isBlank() ? "" : ", " + notice.description(), nodeName,
                    notice.kind().requeues() ? " and requeues its jobs" : "");
        written = notice;
        writtenAt = now;
        readyCheckedAt = null;
        markerPending = true;
        moveMarker(now);
        return Outcome.WRITTEN;
    }

    /**
     * Writes the notice again before it would expire, as stored: the agent may have marked it ready, which a copy of
     * the node's own would erase.
     */
    private Outcome renew(NoticeDocument wanted, Instant now) {
        NoticeDocument stored = store.read(NoticeDocument.keyFor(nodeName), NoticeDocument.class)
                .map(DocumentStore.Versioned::document).orElse(null);
        store.upsert(List.of(wanted.sameEvent(stored) ? stored : wanted));
        writtenAt = now;
        return Outcome.WRITTEN;
    }

    private void moveMarker(Instant now) {
        store.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, now)));
        markerPending = false;
    }

    private Outcome remove(Instant now) {
        store.delete(List.of(NoticeDocument.keyFor(nodeName)));
        log.info("Azure's {} {} is over: the agent returns node {} to service", written.rawType(),
                written.eventId(), nodeName);
        acknowledged.remove(written.eventId());
        written = null;
        writtenAt = null;
        markerPending = true;
        moveMarker(now);
        return Outcome.REMOVED;
    }

    /**
     * Once the agent has found the node out of service and empty, a deletion or a restart need not wait for its
     * {@code NotBefore}: the VM is let go at once, and a restarted node is back sooner.
     */
    private Outcome acknowledgeIfReady(Instant now, boolean started) throws InterruptedException {
        if (!written.kind().acknowledgedWhenEmpty() || acknowledged.contains(written.eventId()) || started
                || (readyCheckedAt != null && now.isBefore(readyCheckedAt.plus(READY_CHECK)))) {
            return Outcome.NOTHING;
        }
        readyCheckedAt = now;
        Optional<NoticeDocument> stored = store.read(NoticeDocument.keyFor(nodeName), NoticeDocument.class)
                .map(DocumentStore.Versioned::document);
        if (stored.isEmpty() || !stored.get().sameEvent(written) || stored.get().readyAt() == null) {
            return Outcome.NOTHING;
        }
        try {
            endpoint.acknowledge(written.eventId());
        } catch (EndpointException e) {
            log.warn("{}; it is tried again at the next poll", e.getMessage());
            readyCheckedAt = null;
            return Outcome.FAILED;
        }
        acknowledged.add(written.eventId());
        log.info("node {} is out of service and runs no job: Azure's {} {} may go ahead now", nodeName,
                written.rawType(), written.eventId());
        return Outcome.ACKNOWLEDGED;
    }
}
