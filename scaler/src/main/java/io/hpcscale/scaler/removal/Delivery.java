package io.hpcscale.scaler.removal;

import java.time.Instant;

/**
 * What the queue says of one received message: enough to delete it, and how often it was handed out.
 *
 * @param popReceipt   proves this receipt is the latest: the message can be deleted with it only until it becomes
 *                     visible again and someone else receives it
 * @param dequeueCount how many times it has been received, this time included
 * @param insertedAt   when it was put on the queue
 */
public record Delivery(String messageId, String popReceipt, long dequeueCount, Instant insertedAt) {
}
