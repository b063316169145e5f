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
        /** @return when the next cycle should begin at the latest, or null for one interval after this one began */
        Instant runOnce(Instant now) throws InterruptedException;
    }

    private final Clock clock;
    private final Duration interval;
    private final Cycle cycle;
    private final CountDownLatch stopped = new CountDownLatch(1);

    public ServiceLoop(Clock clock, Duration interval, Cycle cycle) {
        this.clock = clock;
        this.interval = interval;
        this.cycle = cycle;
    }

    /** Runs cycles until {@link #stop()} is called or the thread is interrupted. */
    public void run() throws InterruptedException {
        while (stopped.getCount() > 0) {
            Instant started = clock.instant();
            Instant next = null;
            try {
                next = cycle.runOnce(started);
            } catch (RuntimeException e) {
                log.error("a cycle failed unexpectedly; the next one runs as planned", e);
            }
            Instant due = started.plus(interval);
            if (next != null && next.isBefore(due)) {
                due = next;
            }
            Duration wait = Duration.between(clock.instant(), due);
            if (!wait.isNegative() && stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        }
    }

    /**
     * Runs until SIGTERM or SIGINT ({@link GracefulShutdown}): the cycle in progress finishes, {@code onStop} is told
     * at once (to begin no new call), and this returns so that the caller can wind down and exit 0.
     */
    public void runUntilShutdown(Duration grace, Runnable onStop) throws InterruptedException {
        GracefulShutdown.install(grace, () -> {
            stop();
            onStop.run();
        });
        run();
    }

    /** Ends {@link #run()} after the cycle in progress. */
    public void stop() {
        stopped.countDown();
    }
}
