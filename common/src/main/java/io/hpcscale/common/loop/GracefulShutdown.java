package io.hpcscale.common.loop;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT ask a service to stop rather than kill it: the call in flight (a scheduler command, a power
 * command, a cloud call) finishes and is recorded, no new one begins, and the program exits 0. If that takes longer
 * than the grace period, or a second signal comes, it exits at once with status 1, killing the commands it started.
 *
 * <p>The JVM's own handling (shutdown hooks) cannot do this: it exits with 143 and lets nothing finish after the
 * hooks. {@code sun.misc.Signal} is the JDK's supported way for a program to handle signals itself.
 */
public final class GracefulShutdown {
    private static final Logger log = LoggerFactory.getLogger(GracefulShutdown.class);

    private final Duration grace;
    private final Runnable stop;
    private final AtomicInteger signals = new AtomicInteger();

    private GracefulShutdown(Duration grace, Runnable stop) {
        this.grace = grace;
        this.stop = stop;
    }

    /** Handles SIGTERM and SIGINT from now on by calling {@code stop} (once) and bounding what follows. */
    public static GracefulShutdown install(Duration grace, Runnable stop) {
        GracefulShutdown shutdown = new GracefulShutdown(grace, stop);
        for (String name : new String[] {"TERM", "INT"}) {
            Signal.handle(new Signal(name), shutdown::received);
        }
        return shutdown;
    }

    public boolean requested() {
        return signals.get() > 0;
    }

    private void received(Signal signal) {
        if (signals.incrementAndGet() > 1) {
            log.warn("SIG{} again: exiting now", signal.getName());
            System.exit(1);
        }
        log.info("SIG{}: the call in flight finishes (for at most {}s), then the program exits", signal.getName(),
                grace.toSeconds());
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(grace.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            log.error("the shutdown grace of {}s passed with a call still in flight: exiting without its outcome",
                    grace.toSeconds());
            System.exit(1);
        }, "hpcscale-shutdown-grace");
        watchdog.setDaemon(true);
        watchdog.start();
        stop.run();
    }
}
