package io.hpcscale.common.agent;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.common.model.DocumentType;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.NoticeDocument;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.DocumentStore.Versioned;
import io.hpcscale.common.store.PartitionReads;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What the nodes wrote for the agent themselves, each with the ETag it was read at: their notices of Scheduled Events
 * and their health checks, by node name. Read from {@code _meta} with the drain requests, through
 * {@link PartitionReads}: only what changed since the last read, since there is one health check per running node of
 * a checked pool and every boot moves the marker twice; reading them all each time would cost about 1 RU per node.
 */
record NodeReports(Map<String, Versioned<NoticeDocument>> notices, Map<String, Versioned<HealthDocument>> health) {
    static final NodeReports NONE = new NodeReports(Map.of(), Map.of());
    private static final Set<DocumentType> TYPES = Set.of(DocumentType.NOTICES, DocumentType.HEALTH);

    NodeReports {
        notices = Map.copyOf(notices);
        health = Map.copyOf(health);
    }

    static NodeReports read(DocumentStore store, PartitionReads reads, Instant now) {
        Map<String, Versioned<NoticeDocument>> notices = new HashMap<>();
        Map<String, Versioned<HealthDocument>> health = new HashMap<>();
        for (Versioned<ClusterLoadDocument> read : store.versioned(reads.read(ClusterLoadDocument.META_POOL, TYPES,
                now))) {
            if (read.document() instanceof NoticeDocument notice) {
                notices.put(notice.name(), new Versioned<>(notice, read.etag()));
            } else if (read.document() instanceof HealthDocument check) {
                health.put(check.name(), new Versioned<>(check, read.etag()));
            }
        }
        return new NodeReports(notices, health);
    }

    Map<String, NoticeDocument> noticesByNode() {
        Map<String, NoticeDocument> byNode = new HashMap<>();
        notices.forEach((node, notice) -> byNode.put(node, notice.document()));
        return byNode;
    }

    Map<String, HealthDocument> healthByNode() {
        Map<String, HealthDocument> byNode = new HashMap<>();
        health.forEach((node, check) -> byNode.put(node, check.document()));
        return byNode;
    }

    NodeReports withNotice(NoticeDocument notice, String etag) {
        Map<String, Versioned<NoticeDocument>> updated = new HashMap<>(notices);
        updated.put(notice.name(), new Versioned<>(notice, etag));
        return new NodeReports(updated, health);
    }

    NodeReports withHealth(HealthDocument check, String etag) {
        Map<String, Versioned<HealthDocument>> updated = new HashMap<>(health);
        updated.put(check.name(), new Versioned<>(check, etag));
        return new NodeReports(notices, updated);
    }
}
