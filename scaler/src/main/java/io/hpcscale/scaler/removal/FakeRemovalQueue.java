package io.hpcscale.scaler.removal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;

/**
 * An in-memory removal queue with the service's at-least-once delivery, on the given clock: a received message
 * stays hidden for its visibility timeout, then is handed out again with its dequeue count one higher and a new
 * pop receipt, which makes the old one useless. Messages come out oldest first. The fake beside
 * {@link RemovalQueue} for tests and the simulator; {@link #failWith} makes it fail as a queue service can.
 */
public final class FakeRemovalQueue implements RemovalQueue {
    private final Clock clock;
    private final int maxTries;
    private final RemovalMessageCodec codec = new RemovalMessageCodec();
    private final List<Stored> messages = new ArrayList<>();
    private final List<SetAside> setAside = new ArrayList<>();
    private RemovalQueueException.Failure failing;

    /** A message as the queue holds it. */
    public record Stored(String messageId, String body, Instant insertedAt, Instant visibleAt, long dequeueCount,
            String popReceipt) {
    }

    /** @param maxTries a message handed out more often than this is poison */
    public FakeRemovalQueue(Clock clock, int maxTries) {
        if (maxTries < 1) {
            throw new IllegalArgumentException("maxTries must be at least 1, not " + maxTries);
        }
        this.clock = clock;
        this.maxTries = maxTries;
    }

    @Override
    public String send(RemovalRequest request) throws RemovalQueueException {
        return sendText(codec.encode(request));
    }

    /** Puts any text on the queue, as another sender might: for malformed and foreign messages. */
    public synchronized String sendText(String body) throws RemovalQueueException {
        failIfTold();
        String id = UUID.randomUUID().toString();
        Instant now = clock.instant();
        messages.add(new Stored(id, body, now, now, 0, null));
        return id;
    }

    @Override
    public synchronized List<RemovalMessage> receive(int max, Duration visibilityTimeout)
            throws RemovalQueueException {
        ReceiveLimits.check(max, visibilityTimeout);
        failIfTold();
        Instant now = clock.instant();
        List<RemovalMessage> received = new ArrayList<>();
        for (int i = 0; i < messages.size() && received.size() < max; i++) {
            Stored stored = messages.get(i);
            if (stored.visibleAt().isAfter(now)) {
                continue;
            }
            Stored handedOut = new Stored(stored.messageId(), stored.body(), stored.insertedAt(),
                    now.plus(visibilityTimeout), stored.dequeueCount() + 1, UUID.randomUUID().toString());
            messages.set(i, handedOut);
            received.add(RemovalMessage.of(new Delivery(handedOut.messageId(), handedOut.popReceipt(),
                    handedOut.dequeueCount(), handedOut.insertedAt()), handedOut.body(), maxTries, codec));
        }
        return received;
    }

    @Override
    public synchronized boolean delete(RemovalMessage message) throws RemovalQueueException {
        failIfTold();
        Iterator<Stored> it = messages.iterator();
        while (it.hasNext()) {
            Stored stored = it.next();
            if (stored.messageId().equals(message.delivery().messageId())
                    && stored.popReceipt() != null && stored.popReceipt().equals(message.delivery().popReceipt())) {
                it.remove();
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized boolean setAside(RemovalMessage message, String reason) throws RemovalQueueException {
        failIfTold();
        Delivery delivery = message.delivery();
        setAside.add(new SetAside(delivery.messageId(), delivery.dequeueCount(), delivery.insertedAt(),
                clock.instant(), reason, message.body()));
        return delete(message);
    }

    /** Every later call fails with this, until {@link #recover()}: a queue service down, throttling or refusing. */
    public synchronized FakeRemovalQueue failWith(RemovalQueueException.Failure kind) {
        failing = kind;
        return this;
    }

    public synchronized FakeRemovalQueue recover() {
        failing = null;
        return this;
    }

    /** What the queue holds, visible or not, oldest first. */
    public synchronized List<Stored> messages() {
        return List.copyOf(messages);
    }

    /** What the poison queue holds, in the order set aside. */
    public synchronized List<SetAside> poisonQueue() {
        return List.copyOf(setAside);
    }

    @Override
    public String describe() {
        return "the fake removal queue";
    }

    @Override
    public void close() {
        // Nothing is held.
    }

    private void failIfTold() throws RemovalQueueException {
        if (failing != null) {
            throw new RemovalQueueException(failing, "the fake removal queue fails as told: " + failing);
        }
    }
}
