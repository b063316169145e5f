package io.hpcscale.scaler.run;

import io.hpcscale.common.logging.LogFields;
import io.hpcscale.common.logging.OncePerKey;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import io.hpcscale.scaler.documents.EventDocument;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Records each action and refusal: one log line with pool, instances and reason, an events document (kept for the
 * event ttl), and a call to each listener. A refusal that persists cycle after cycle is recorded when it first
 * appears and when it changes, not every cycle.
 */
public final class ScalerEvents {
    private static final Logger log = LoggerFactory.getLogger(ScalerEvents.class);

    /** Someone who follows the scaler's decisions as they happen (the demo prints them). */
    public interface Listener {
        void recorded(ScalerEvent event);
    }

    private final DocumentStore store;
    private final Duration ttl;
    private final boolean writeDocuments;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, OncePerKey> repeatedRefusals = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();

    public ScalerEvents(DocumentStore store, Duration ttl, boolean writeDocuments) {
        this.store = store;
        this.ttl = ttl;
        this.writeDocuments = writeDocuments;
    }

    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    void action(ScalerEvent event) {
        record(event);
    }

    /** A refusal or condition: recorded only when it is new for its pool. */
    void refusal(ScalerEvent event) {
        if (refusalsOf(event.pool()).first(event.kind() + "|" + event.reason())) {
            record(event);
        } else {
            withFields(log.atDebug(), event).log("pool={} {} (still): {}", event.pool(), event.kind(), event.reason());
        }
    }

    /** Called once per cycle of a pool: its refusals not seen in this cycle are forgotten. */
    void endPoolCycle(String pool) {
        refusalsOf(pool).endRound();
    }

    private OncePerKey refusalsOf(String pool) {
        return repeatedRefusals.computeIfAbsent(pool, p -> new OncePerKey());
    }

    private void record(ScalerEvent event) {
        String instances = event.instances().isEmpty() ? "" : " instance=" + String.join(",", event.instances());
        withFields(log.atLevel(event.failed() ? Level.WARN : Level.INFO), event)
                .addKeyValue(LogFields.OUTCOME, event.outcome().wire())
                .log("pool={}{} action={} outcome={} reason={}", event.pool(), instances, event.kind(),
                        event.outcome(), event.reason());
        if (writeDocuments) {
            try {
                store.upsert(List.of(new EventDocument(nextId(event.at()), event.pool(), event.at(),
                        event.kind().wireName(), event.instances(), event.reason(), event.outcome().wire(),
                        ttl.toSeconds())));
            } catch (StoreException e) {
                log.atWarn().addKeyValue(LogFields.POOL, event.pool())
                        .log("pool={} the event of {} could not be stored: {}", event.pool(), event.kind(),
                                e.getMessage());
            }
        }
        listeners.forEach(l -> l.recorded(event));
    }

    /** The event's pool, instances, action and reason as fields of the log line, for the json format. */
    private static LoggingEventBuilder withFields(LoggingEventBuilder line, ScalerEvent event) {
        line.addKeyValue(LogFields.POOL, event.pool());
        if (!event.instances().isEmpty()) {
            line.addKeyValue(LogFields.INSTANCE, String.join(",", event.instances()));
        }
        return line.addKeyValue(LogFields.ACTION, event.kind().wireName())
                .addKeyValue(LogFields.REASON, event.reason());
    }

    /** Ids sort by time: milliseconds, then a sequence, then a little randomness against a second scaler. */
    private String nextId(Instant at) {
        return String.format("evt-%013d-%06d-%04x", at.toEpochMilli(), sequence.incrementAndGet() % 1_000_000,
                ThreadLocalRandom.current().nextInt(0x10000));
    }
}
