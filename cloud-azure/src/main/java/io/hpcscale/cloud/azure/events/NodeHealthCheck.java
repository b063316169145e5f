package io.hpcscale.cloud.azure.events;

import io.hpcscale.common.exec.CommandException;
import io.hpcscale.common.exec.CommandLimits;
import io.hpcscale.common.exec.CommandLine;
import io.hpcscale.common.exec.CommandRunner;
import io.hpcscale.common.exec.CommandTimeoutException;
import io.hpcscale.common.model.ChangeMarkerDocument;
import io.hpcscale.common.model.HealthDocument;
import io.hpcscale.common.model.HealthDocument.State;
import io.hpcscale.common.store.DocumentStore;
import io.hpcscale.common.store.StoreException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's health check of this boot, run before the scheduler's daemon starts (the unit
 * {@code hpcscale-node-check} is ordered before it): writes {@code PENDING}, runs the pool's {@code healthCheck},
 * writes the result with the check's last output, and after a failure waits, up to {@code holdWait}, for the agent to
 * have taken the node out of service, so that the daemon starts with the node already held and it never takes a
 * job. Each write moves the marker the agent watches.
 */
public final class NodeHealthCheck {
    private static final Logger log = LoggerFactory.getLogger(NodeHealthCheck.class);
    /** How the wrapper reports the check's own exit status on its last line, whatever the check printed. */
    private static final String STATUS_LINE = "hpcscale-health-check-status=";
    private static final Duration HELD_POLL = Duration.ofSeconds(5);

    private final CommandRunner runner;
    private final DocumentStore store;
    private final Clock clock;
    private final String nodeName;

    public NodeHealthCheck(CommandRunner runner, DocumentStore store, Clock clock, String nodeName) {
        this.runner = runner;
        this.store = store;
        this.clock = clock;
        this.nodeName = nodeName;
    }

    /**
     * @param command  the pool's {@code healthCheck}, run by {@code /bin/sh}
     * @param timeout  a check still running after this long is killed and has failed
     * @param holdWait how long a failed node waits to be held
     * @return the check's outcome
     */
    public HealthDocument run(String command, Duration timeout, Duration holdWait) throws InterruptedException {
        write(HealthDocument.of(nodeName, State.PENDING, null, clock.instant()), timeout);
        log.info("node {}: health check running: {}", nodeName, command);
        HealthDocument result = check(command, timeout);
        write(result, holdWait);
        if (result.state() == State.PASSED) {
            log.info("node {}: health check passed", nodeName);
            return result;
        }
        log.warn("node {}: {}", nodeName, result.holdReason());
        awaitHeld(holdWait);
        return result;
    }

    /** A check that could not run, reported as failed so that the node is held, as after any failed check. */
    public HealthDocument fail(String why, Duration holdWait) throws InterruptedException {
        HealthDocument failed = HealthDocument.of(nodeName, State.FAILED, why, clock.instant());
        write(failed, holdWait);
        log.warn("node {}: {}", nodeName, failed.holdReason());
        awaitHeld(holdWait);
        return failed;
    }

    private HealthDocument check(String command, Duration timeout) throws InterruptedException {
        // The check's stdout and stderr together, then its exit status on a line of its own: NHC and Azure's HPC
        // health checks say what failed on either stream, and a failing check's output is what the reason needs.
        CommandLine line = new CommandLine(List.of("/bin/sh", "-c", "sh -c \"$1\" 2>&1; echo \"" + STATUS_LINE
                + "$?\"", "hpcscale-node-check", command), new CommandLimits(timeout, "node.healthCheckTimeout",
                1 << 20, "node.healthCheckTimeout"), "pool.<name>.healthCheck");
        try {
            String output = runner.run(line).stdoutText().strip();
            int at = output.lastIndexOf(STATUS_LINE);
            String status = at < 0 ? "" : output.substring(at + STATUS_LINE.length()).strip();
            String printed = at < 0 ? output : output.substring(0, at).strip();
            State state = "0".equals(status) ? State.PASSED : State.FAILED;
            // The status first: the reason shows the last line, where a check says what failed.
            return HealthDocument.of(nodeName, state, state == State.PASSED ? printed : "exit status " + status
                    + (printed.isEmpty() ? "" : "\n" + printed), clock.instant());
        } catch (CommandTimeoutException e) {
            return HealthDocument.of(nodeName, State.FAILED, "the check ran longer than " + timeout.toSeconds()
                    + " s (node.healthCheckTimeout) and was stopped", clock.instant());
        } catch (CommandException e) {
            return HealthDocument.of(nodeName, State.FAILED, "the check could not be run: " + e.getMessage(),
                    clock.instant());
        }
    }

    /**
     * Writes the check and moves the marker, trying again while the store does not answer, for up to
     * {@code patience}: a node that cannot report cannot be held.
     *
     * @throws StoreException the store did not answer within {@code patience}
     */
    private void write(HealthDocument check, Duration patience) throws InterruptedException {
        Instant until = clock.instant().plus(patience);
        while (true) {
            try {
                store.upsert(List.of(check));
                store.upsert(List.of(new ChangeMarkerDocument(ChangeMarkerDocument.DRAINS, clock.instant())));
                return;
            } catch (StoreException e) {
                if (!clock.instant().isBefore(until)) {
                    throw e;
                }
                log.warn("node {}: the store did not take the health check ({}); trying again", nodeName,
                        e.getMessage());
                Thread.sleep(HELD_POLL.toMillis());
            }
        }
    }

    private void awaitHeld(Duration holdWait) throws InterruptedException {
        Instant until = clock.instant().plus(holdWait);
        while (true) {
            Optional<HealthDocument> now;
            try {
                now = store.read(HealthDocument.keyFor(nodeName), HealthDocument.class)
                        .map(DocumentStore.Versioned::document);
            } catch (StoreException e) {
                now = Optional.empty();
            }
            if (now.isPresent() && now.get().heldAt() != null) {
                log.info("node {}: the agent holds it out of service; the scheduler's daemon may start", nodeName);
                return;
            }
            if (!clock.instant().isBefore(until)) {
                log.warn("node {}: the agent did not take it out of service within {} s (is it running, and does "
                        + "the scheduler list this node?); the scheduler's daemon starts, and the agent holds the node "
                        + "at its next cycle", nodeName, holdWait.toSeconds());
                return;
            }
            Thread.sleep(HELD_POLL.toMillis());
        }
    }
}
