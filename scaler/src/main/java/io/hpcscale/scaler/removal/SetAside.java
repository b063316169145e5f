package io.hpcscale.scaler.removal;

import java.time.Instant;

/**
 * A poison message as kept on the poison queue: the original text, untouched, and why it was set aside.
 *
 * @param body the message as it was sent, which may not be JSON at all
 */
public record SetAside(String messageId, long dequeueCount, Instant insertedAt, Instant setAsideAt, String reason,
        String body) {
}
