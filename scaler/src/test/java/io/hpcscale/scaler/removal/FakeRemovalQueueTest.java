package io.hpcscale.scaler.removal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hpcscale.common.time.SettableClock;
import io.hpcscale.scaler.removal.RemovalQueueException.Failure;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fake's delivery is the service's: at least once, hidden while being handled, poison after maxTries. */
class FakeRemovalQueueTest {
    private static final Duration VISIBILITY = Duration.ofMinutes(5);

    private final SettableClock clock = new SettableClock(Instant.parse("2025-03-01T12:00:00Z"));
    private final FakeRemovalQueue queue = new FakeRemovalQueue(clock, 3);

    @Test
    void aReceivedMessageIsHiddenUntilItsVisibilityTimeoutThenComesBackCountedAgain() throws Exception {
        queue.send(RemovalRequests.uniform());

        RemovalMessage first = queue.receive(10, VISIBILITY).get(0);
        assertEquals(List.of(), queue.receive(10, VISIBILITY), "hidden while it is being handled");
        clock.advance(VISIBILITY.minusSeconds(1));
        assertEquals(List.of(), queue.receive(10, VISIBILITY));
        clock.advance(Duration.ofSeconds(1));
        RemovalMessage second = queue.receive(10, VISIBILITY).get(0);

        assertEquals(1, first.delivery().dequeueCount());
        assertEquals(2, second.delivery().dequeueCount());
        assertEquals(first.delivery().messageId(), second.delivery().messageId());
        assertNotEquals(first.delivery().popReceipt(), second.delivery().popReceipt());
        assertEquals(RemovalRequests.uniform(), ((RemovalMessage.Request) second).request());
    }

    @Test
    void aStaleReceiptDeletesNothingAndTheLatestDeletes() throws Exception {
        queue.send(RemovalRequests.uniform());
        RemovalMessage first = queue.receive(1, VISIBILITY).get(0);
        clock.advance(VISIBILITY);
        RemovalMessage second = queue.receive(1, VISIBILITY).get(0);

        assertFalse(queue.delete(first), "handed out again: the new receiver deals with it");
        assertTrue(queue.delete(second));
        assertFalse(queue.delete(second), "already deleted");
        clock.advance(VISIBILITY);
        assertEquals(List.of(), queue.receive(10, VISIBILITY));
    }

    @Test
    void aMessageReceivedMoreThanMaxTriesTimesIsPoisonAndSetAsideWithItsReason() throws Exception {
        queue.send(RemovalRequests.uniform());
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(RemovalMessage.Request.class, queue.receive(1, VISIBILITY).get(0));
            clock.advance(VISIBILITY);
        }

        RemovalMessage.Poison poison = assertInstanceOf(RemovalMessage.Poison.class, queue.receive(1, VISIBILITY)
                .get(0));
        assertTrue(queue.setAside(poison, poison.reason()));

        assertEquals("the removal of render_3 (" + RemovalRequests.UNIFORM_ID + ") was received 4 times "
                + "without being carried out, more than maxTries (3)", poison.reason());
        assertEquals(List.of(), queue.messages());
        SetAside kept = queue.poisonQueue().get(0);
        assertEquals(poison.body(), kept.body());
        assertEquals(4, kept.dequeueCount());
        assertEquals(clock.instant(), kept.setAsideAt());
    }

    @Test
    void anUnreadableMessageIsPoisonTheFirstTime() throws Exception {
        queue.sendText("{\"version\":7}");

        RemovalMessage.Poison poison = assertInstanceOf(RemovalMessage.Poison.class, queue.receive(1, VISIBILITY)
                .get(0));

        assertEquals("the message cannot be read: it is version 7, and this scaler reads only version 1: upgrade "
                + "hpcscale-scaler, or send version 1", poison.reason());
        assertEquals("{\"version\":7}", poison.body());
    }

    @Test
    void messagesComeOutOldestFirstAtMostMaxAtATime() throws Exception {
        String a = queue.sendText("a");
        String b = queue.sendText("b");
        String c = queue.sendText("c");

        List<RemovalMessage> firstTwo = queue.receive(2, VISIBILITY);

        assertEquals(List.of(a, b), firstTwo.stream().map(m -> m.delivery().messageId()).toList());
        assertEquals(c, queue.receive(2, VISIBILITY).get(0).delivery().messageId());
    }

    @Test
    void aFailingQueueThrowsRatherThanLookingEmpty() throws Exception {
        queue.send(RemovalRequests.uniform());
        queue.failWith(Failure.UNREACHABLE);

        RemovalQueueException e = assertThrows(RemovalQueueException.class, () -> queue.receive(10, VISIBILITY));

        assertEquals(Failure.UNREACHABLE, e.failure());
        queue.recover();
        assertEquals(1, queue.receive(10, VISIBILITY).size());
    }

    @Test
    void receiveRefusesWhatTheServiceWouldRefuse() {
        assertThrows(IllegalArgumentException.class, () -> queue.receive(33, VISIBILITY));
        assertThrows(IllegalArgumentException.class, () -> queue.receive(0, VISIBILITY));
        assertThrows(IllegalArgumentException.class, () -> queue.receive(1, Duration.ofMillis(1500)));
        assertThrows(IllegalArgumentException.class, () -> queue.receive(1, Duration.ofDays(8)));
    }
}
