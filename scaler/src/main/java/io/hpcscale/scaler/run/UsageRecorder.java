package io.hpcscale.scaler.run;

import io.hpcscale.common.model.DocumentKey;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.documents.UsageDocument;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds, after each cycle the active scaler acted in, the time since its last sample to the pool's usage document of
 * the day: active instances and busy ones, each the mean of the two samples. Only the lease holder samples, so one
 * writer; a scaler restarted within {@link #LONGEST_GAP} counts the time it was away the same way, a longer gap is
 * not counted (what ran then is unknown). A pool whose instances are unknown is not sampled: unknown is not zero.
 *
 * <p>A pool is sampled at most once every {@link #EVERY}: a scaler woken every few seconds by agents' changes would
 * otherwise read and rewrite the document each time (about 12 RU on Cosmos DB), for no better figure. The time
 * between is counted at the next sample, as the mean of its two ends.
 */
final class UsageRecorder {
    static final Duration LONGEST_GAP = Duration.ofHours(6);
    static final Duration EVERY = Duration.ofMinutes(1);
    private static final Logger log = LoggerFactory.getLogger(UsageRecorder.class);

    private final DocumentStore store;
    private final Map<String, Instant> sampledAt = new ConcurrentHashMap<>();

    UsageRecorder(DocumentStore store) {
        this.store = store;
    }

    void record(String pool, PoolCensus census, Instant now) {
        if (census == null || !census.instancesKnown()) {
            return;
        }
        Instant sampled = sampledAt.get(pool);
        if (sampled != null && now.isBefore(sampled.plus(EVERY)) && !now.isBefore(sampled)) {
            return;
        }
        try {
            LocalDate day = UsageDocument.dayOf(now);
            Optional<UsageDocument> today = read(pool, day);
            Optional<UsageDocument> last = today.isPresent() ? today : read(pool, day.minusDays(1));
            double instanceSeconds = today.map(UsageDocument::instanceSeconds).orElse(0.0);
            double busySeconds = today.map(UsageDocument::busySeconds).orElse(0.0);
            int active = census.active();
            int busy = census.count(InstanceCategory.BUSY);
            if (last.isPresent()) {
                Duration gap = Duration.between(last.get().lastSampleAt(), now);
                if (!gap.isNegative() && gap.compareTo(LONGEST_GAP) <= 0) {
                    double seconds = gap.toMillis() / 1000.0;
                    instanceSeconds += seconds * (last.get().lastActive() + active) / 2.0;
                    busySeconds += seconds * (last.get().lastBusy() + busy) / 2.0;
                }
            }
            store.upsert(List.of(new UsageDocument(pool, day, instanceSeconds, busySeconds, now, active, busy)));
            sampledAt.put(pool, now);
        } catch (StoreException e) {
            log.warn("pool {}: usage not recorded this cycle ({}); the next cycle counts the time since the last "
                    + "sample", pool, e.getMessage());
        }
    }

    private Optional<UsageDocument> read(String pool, LocalDate day) {
        return store.read(new DocumentKey(pool, UsageDocument.idFor(pool, day)), UsageDocument.class)
                .map(DocumentStore.Versioned::document);
    }
}
