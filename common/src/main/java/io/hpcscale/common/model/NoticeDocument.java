package io.hpcscale.common.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What the platform told a node it is about to do to it: an Azure Scheduled Event affecting the node's VM, written by
 * the node's {@code hpcscale-node-events} service so that the agent takes the node out of service (and requeues its
 * jobs before a Spot eviction or a deletion), and the scaler records an eviction as one. One per node, in the
 * {@code _meta} partition: a node does not know which pool the agents put it in. The agent adds {@code readyAt} once
 * the node is out of service and runs no job; the node then acknowledges the event, so that a deletion or a reboot
 * goes ahead without waiting out its notice.
 *
 * @param eventId     the platform's id of the event, as the node acknowledges it
 * @param rawType     the event type as the platform names it ({@code Preempt}, {@code Terminate}, ...)
 * @param notBefore   when it happens at the earliest; null once it has started
 * @param description the platform's words, for the node's offline reason
 * @param receivedAt  when the node first saw the event
 * @param readyAt     when the agent found the node out of service and empty, or null
 */
public record NoticeDocument(String id, String name, String eventId, Kind kind, String rawType, Instant notBefore,
        String description, Instant receivedAt, Instant readyAt) implements ClusterLoadDocument {

    /**
     * How long a notice lives unless rewritten: a node whose VM was evicted or deleted never removes its own, and a
     * node that still has the event pending writes it again.
     */
    public static final Duration KEPT = Duration.ofDays(1);

    /** What the event means for the node's work. */
    public enum Kind {
        /** A Spot eviction, at least 30 s ahead: requeue the jobs now, they cannot finish. */
        PREEMPT("Preempt", true, false),
        /** The VM is being deleted (a scale-in, or someone's delete), 5 to 15 min ahead as the scale set says. */
        TERMINATE("Terminate", true, true),
        /** The VM restarts on another host: its jobs die with it, so it waits for them to end, then lets it go. */
        REDEPLOY("Redeploy", false, true),
        /** The VM restarts: the same. */
        REBOOT("Reboot", false, true),
        /** The VM pauses for seconds: no new work until it is over, running work survives. */
        FREEZE("Freeze", false, false),
        /** A type this version does not know: no new work until it is over, nothing else. */
        OTHER("", false, false);

        private final String platformName;
        private final boolean requeues;
        private final boolean acknowledgedWhenEmpty;

        Kind(String platformName, boolean requeues, boolean acknowledgedWhenEmpty) {
            this.platformName = platformName;
            this.requeues = requeues;
            this.acknowledgedWhenEmpty = acknowledgedWhenEmpty;
        }

        public static Kind of(String eventType) {
            for (Kind kind : values()) {
                if (kind != OTHER && kind.platformName.equals(eventType)) {
                    return kind;
                }
            }
            return OTHER;
        }

        /** Whether the jobs on the node are requeued at once: they cannot outlive the event. */
        public boolean requeues() {
            return requeues;
        }

        /** Whether the node lets the event start early once it is out of service and empty. */
        public boolean acknowledgedWhenEmpty() {
            return acknowledgedWhenEmpty;
        }

        /** The more disruptive of two kinds goes into a node's one notice when several events are pending. */
        public boolean graverThan(Kind other) {
            return ordinal() < other.ordinal();
        }
    }

    public NoticeDocument {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(rawType, "rawType");
        Objects.requireNonNull(receivedAt, "receivedAt");
    }

    public static NoticeDocument of(String nodeName, String eventId, String rawType, Instant notBefore,
            String description, Instant receivedAt) {
        return new NoticeDocument(idFor(nodeName), nodeName, eventId, Kind.of(rawType), rawType, notBefore,
                description, receivedAt, null);
    }

    public static String idFor(String nodeName) {
        return "notice-" + CosmosIds.encode(nodeName);
    }

    public static DocumentKey keyFor(String nodeName) {
        return new DocumentKey(META_POOL, idFor(nodeName));
    }

    /** The same notice, marked by the agent: the node is out of service and runs no job. */
    public NoticeDocument readyAt(Instant when) {
        return new NoticeDocument(id, name, eventId, kind, rawType, notBefore, description, receivedAt, when);
    }

    /**
     * Whether this is about the same event as another, whatever the agent has added to either, and although the
     * event's {@code NotBefore} empties once it starts.
     */
    public boolean sameEvent(NoticeDocument other) {
        return other != null && eventId.equals(other.eventId) && rawType.equals(other.rawType)
                && name.equals(other.name);
    }

    /** The node's offline reason, in the scheduler's words where users look. */
    public String offlineReason() {
        String when = notBefore == null ? "now" : "not before " + notBefore;
        String why = description == null || description.isBlank() ? "" : ": " + description;
        return "Azure " + rawType + " " + when + why;
    }

    @Override
    public String poolName() {
        return META_POOL;
    }

    @Override
    public DocumentType type() {
        return DocumentType.NOTICES;
    }
}
