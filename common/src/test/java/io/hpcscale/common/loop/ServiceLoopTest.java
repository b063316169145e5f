package io.hpcscale.common.loop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ServiceLoopTest {

    @Test
    void keepsRunningAfterACycleThrowsAndStopsWhenAsked() throws Exception {
        AtomicInteger cycles = new AtomicInteger();
        CountDownLatch third = new CountDownLatch(3);
        ServiceLoop loop = new ServiceLoop(Clock.systemUTC(), Duration.ofMillis(10), now -> {
            cycles.incrementAndGet();
            third.countDown();
            throw new IllegalStateException("a bug in one cycle");
        });
        Thread thread = new Thread(() -> {
            try {
                loop.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.start();
        assertTrue(third.await(10, TimeUnit.SECONDS));
        loop.stop();
        thread.join(10_000);
        assertTrue(!thread.isAlive() && cycles.get() >= 3);
    }

    @Test
    void aCycleCanAskForTheNextOneSoonerThanTheInterval() throws Exception {
        CountDownLatch three = new CountDownLatch(3);
        ServiceLoop loop = new ServiceLoop(Clock.systemUTC(), Duration.ofHours(1), now -> {
            three.countDown();
            return now.plusMillis(5);
        });
        Thread thread = new Thread(() -> {
            try {
                loop.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        thread.start();
        assertTrue(three.await(10, TimeUnit.SECONDS), "three cycles within seconds despite an interval of an hour");
        loop.stop();
        thread.join(10_000);
    }
}
