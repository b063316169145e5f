package io.hpcscale.common.loop;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Repeats a cycle every interval until stopped. The cycle itself takes the time as an argument, so tests and the
 * simulator step it directly; this loop only supplies the wall clock and the waiting. A cycle that throws is logged
 * and the loop carries on: a service must not die of one bad cycle.
 */
public final class ServiceLoop {
    private static final Logger log = LoggerFactory.getLogger(ServiceLoop.class);

    /** One cycle of a service. */
    @FunctionalInterface
    public interface Cycle {
        void runOnce(Instant now) throws InterruptedException;
    }

    private final Clock clock;
    private final Duration interval;
    private final Cycle cycle;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);

    public ServiceLoop(Clock clock, Duration interval, Cycle cycle) {
        this.clock = clock;
        this.interval = interval;
        this.cycle = cycle;
    }

    /** Runs cycles until {@link #stop()} is called or the thread is interrupted. */
    public void run() throws InterruptedException {
        try {
            loop();
        } finally {
            finished.countDown();
        }
    }

    private void loop() throws InterruptedException {
        while (stopped.getCount() > 0) {
            Instant started = clock.instant();
            try {
                cycle.runOnce(started);
            } catch (RuntimeException e) {
                log.error("a cycle failed unexpectedly; the next one runs as planned", e);
            }
            Duration elapsed = Duration.between(started, clock.instant());
            Duration wait = interval.minus(elapsed);
            if (!wait.isNegative() && stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        }
    }

    /**
     * Runs until the JVM is asked to stop (SIGTERM, Ctrl-C): the shutdown then waits up to {@code grace} for the
     * cycle in progress to finish, so a stop never cuts a write or a cloud call in half. It waits for the loop, not
     * for this thread, which may go on to call System.exit and block there while shutdown hooks run.
     */
    public void runUntilShutdown(Duration grace) throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop();
            try {
                finished.await(grace.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "hpcscale-shutdown"));
        run();
    }

    /** Ends {@link #run()} after the cycle in progress; safe to call from a shutdown hook. */
    public void stop() {
        stopped.countDown();
    }
}
