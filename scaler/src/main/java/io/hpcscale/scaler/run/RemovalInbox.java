package io.hpcscale.scaler.run;

import io.hpcscale.common.model.ClusterLoadDocument;
import io.hpcscale.scaler.plan.EventKind;
import io.hpcscale.scaler.removal.RemovalMessage;
import io.hpcscale.scaler.removal.RemovalQueue;
import io.hpcscale.scaler.removal.RemovalQueueException;
import io.hpcscale.scaler.removal.RemovalRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The removal requests of one cycle: received once (at most {@link RemovalQueue#MAX_RECEIVE}) and handed to the
 * pools whose scale set they name. Unreadable messages, messages tried too often, and messages for a scale set no
 * pool manages are set aside at once, each with an event. A receive that fails means "not known this cycle": the
 * messages stay on the queue.
 */
public final class RemovalInbox implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(RemovalInbox.class);

    private final RemovalQueue queue;
    private final Duration visibilityTimeout;

    /** @param queue the queue, or null when no removal queue is configured */
    public RemovalInbox(RemovalQueue queue, Duration visibilityTimeout) {
        this.queue = queue;
        this.visibilityTimeout = visibilityTimeout;
    }

    public static RemovalInbox none() {
        return new RemovalInbox(null, Duration.ZERO);
    }

    @Override
    public void close() {
        if (queue != null) {
            queue.close();
        }
    }

    /** The requests received now, by pool name. */
    Map<String, List<RemovalMessage.Request>> receive(List<PoolRuntime> pools, Instant now, ScalerEvents events) {
        Map<String, List<RemovalMessage.Request>> byPool = new LinkedHashMap<>();
        if (queue == null) {
            return byPool;
        }
        List<RemovalMessage> messages;
        try {
            messages = queue.receive(RemovalQueue.MAX_RECEIVE, visibilityTimeout);
        } catch (RemovalQueueException e) {
            log.warn("removal requests not read this cycle ({}): {}; they stay on the queue", e.failure(),
                    e.getMessage());
            return byPool;
        }
        for (RemovalMessage message : messages) {
            if (message instanceof RemovalMessage.Poison poison) {
                setAside(message, ClusterLoadDocument.META_POOL, poison.reason(), now, events);
                continue;
            }
            RemovalMessage.Request request = (RemovalMessage.Request) message;
            RemovalRequest asked = request.request();
            PoolRuntime pool = pools.stream().filter(p -> p.provider().manages(asked.resourceGroup(),
                    asked.scaleSet())).findFirst().orElse(null);
            if (pool == null) {
                setAside(message, ClusterLoadDocument.META_POOL, "no pool manages scale set " + asked.scaleSet()
                        + " in resource group " + asked.resourceGroup() + " (instance " + asked.vmName()
                        + ", asked by " + asked.requestedBy() + ")", now, events);
                continue;
            }
            byPool.computeIfAbsent(pool.name(), p -> new ArrayList<>()).add(request);
        }
        return byPool;
    }

    /** Deletes a message that has been carried out; a failure only means it is delivered again, and found done. */
    void done(RemovalMessage message) {
        try {
            if (!queue.delete(message)) {
                log.debug("removal message {} was gone or redelivered already", message.delivery().messageId());
            }
        } catch (RemovalQueueException e) {
            log.warn("removal message {} is carried out but could not be deleted ({}); its next delivery finds it "
                    + "done", message.delivery().messageId(), e.getMessage());
        }
    }

    /**
     * Moves a message that cannot be carried out to the poison queue, with an event in {@code pool}'s partition
     * ({@link ClusterLoadDocument#META_POOL} when it names no pool).
     */
    void setAside(RemovalMessage message, String pool, String reason, Instant now, ScalerEvents events) {
        Outcome outcome = Outcome.OK;
        try {
            queue.setAside(message, reason);
        } catch (RemovalQueueException e) {
            outcome = Outcome.failed("could not be moved to the poison queue: " + e.getMessage());
        }
        events.action(new ScalerEvent(now, pool, EventKind.REMOVAL_SET_ASIDE, List.of(), "removal message "
                + message.delivery().messageId() + " set aside: " + reason, outcome));
    }
}
