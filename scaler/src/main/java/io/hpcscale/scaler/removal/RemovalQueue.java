package io.hpcscale.scaler.removal;

import java.time.Duration;
import java.util.List;

/**
 * The queue on which nodes (or a render manager) ask for VMs to be removed. Delivery is at least once: a received
 * message that is not deleted within its visibility timeout is handed out again, with a higher dequeue count and a
 * new pop receipt. {@link StorageQueueRemovalQueue} is the Azure Storage queue; {@link FakeRemovalQueue} the
 * in-memory one for tests and the simulator.
 */
public interface RemovalQueue extends AutoCloseable {
    /** The service's limit on messages per receive. */
    int MAX_RECEIVE = 32;

    /**
     * Puts a request on the queue.
     *
     * @return the message's id
     */
    String send(RemovalRequest request) throws RemovalQueueException;

    /**
     * Receives up to {@code max} messages, each hidden from other receivers for {@code visibilityTimeout}. Messages
     * handed out more than the queue's {@code maxTries} times, and unreadable ones, come back as
     * {@link RemovalMessage.Poison}; nothing is thrown for a bad message.
     *
     * @param max               1 to {@link #MAX_RECEIVE}
     * @param visibilityTimeout whole seconds, 1 s to 7 days
     * @throws RemovalQueueException when the queue could not be read: not the same as an empty list
     */
    List<RemovalMessage> receive(int max, Duration visibilityTimeout) throws RemovalQueueException;

    /**
     * Deletes a message that has been dealt with.
     *
     * @return false when it was no longer this receipt's to delete: deleted already, or handed out again after its
     *         visibility timeout (the new receiver then deals with it)
     */
    boolean delete(RemovalMessage message) throws RemovalQueueException;

    /**
     * Sets a poison message aside: a copy on the poison queue ({@code <queue>-poison}) with the reason and the
     * original text, then deleted from this queue. Safe to repeat: at worst the poison queue holds two copies.
     *
     * @return false when the copy was made but the message was no longer this receipt's to delete
     */
    boolean setAside(RemovalMessage message, String reason) throws RemovalQueueException;

    /** The queue, for messages and logs: its name and account, never a secret. */
    String describe();

    @Override
    void close();
}
