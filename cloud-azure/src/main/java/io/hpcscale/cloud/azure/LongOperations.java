package io.hpcscale.cloud.azure;

import com.azure.core.management.exception.ManagementError;
import com.azure.core.management.exception.ManagementException;
import com.azure.core.management.polling.PollResult;
import com.azure.core.util.polling.LongRunningOperationStatus;
import com.azure.core.util.polling.PollResponse;
import com.azure.core.util.polling.SyncPoller;
import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.cloud.CallGate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * Waits for Resource Manager's long-running operations (start, deallocate, delete, resize) with a bound. An
 * operation outlasting the bound, or still running when the scaler shuts down, goes on in Azure: the caller records
 * it as unfinished and the next listing shows what it did, so nobody waits on it and nothing is lost.
 *
 * <p>It polls when the reply's {@code Retry-After} says, and every {@link #UNSAID_POLL_GAP} when there is none:
 * real Compute often sends none, and polling every second spent Compute's Get Operation budget (45 at once,
 * refilled 15 a minute per resource) and got throttled.
 */
final class LongOperations {
    /** How often an operation is polled when Azure does not say: the SDK's own default is 30 s. */
    static final Duration UNSAID_POLL_GAP = Duration.ofSeconds(15);
    /** The longest gap between polls, whatever Retry-After says: an operation is seen to end within a minute. */
    private static final Duration LONGEST_POLL_GAP = Duration.ofSeconds(60);
    private static final Duration SHORTEST_POLL_GAP = Duration.ofMillis(200);
    private static final Duration GATE_CHECK = Duration.ofMillis(500);

    private final Duration bound;
    private final CallGate gate;
    private final ArmPace pace;

    LongOperations(Duration bound, CallGate gate, ArmPace pace) {
        this.bound = bound;
        this.gate = gate;
        this.pace = pace;
    }

    /**
     * @return null when the operation succeeded, or why it is unfinished
     * @throws RuntimeException the SDK's error when the operation failed or was cancelled
     */
    String await(SyncPoller<?, ?> poller) throws InterruptedException {
        Instant deadline = pace.clock().instant().plus(bound);
        PollResponse<?> response = poller.poll();
        while (!response.getStatus().isComplete()) {
            Instant wakeAt = pace.clock().instant().plus(gap(response.getRetryAfter()));
            while (pace.clock().instant().isBefore(wakeAt)) {
                if (!gate.open()) {
                    return "the scaler stopped waiting for it (" + gate.closedBecause() + ")";
                }
                if (!pace.clock().instant().isBefore(deadline)) {
                    return "still running after azure.operationTimeout (" + Durations.format(bound) + ")";
                }
                Duration left = Duration.between(pace.clock().instant(), wakeAt);
                pace.sleep(left.compareTo(GATE_CHECK) < 0 ? left : GATE_CHECK);
            }
            response = poller.poll();
        }
        if (response.getStatus() != LongRunningOperationStatus.SUCCESSFULLY_COMPLETED) {
            throw failure(response);
        }
        return null;
    }

    /**
     * Azure's error of a failed or cancelled operation ({@code AllocationFailed}, ...), as the SDK would throw it,
     * its details included: the poll result carries the operation's last response, whose body says why.
     */
    private static RuntimeException failure(PollResponse<?> response) {
        if (response.getValue() instanceof PollResult<?> result && result.getError() != null) {
            PollResult.Error error = result.getError();
            try {
                String body = error.getResponseBody() == null ? "" : error.getResponseBody();
                ManagementError value = ArmErrors.parseError(body.getBytes(StandardCharsets.UTF_8));
                if (value != null && value.getCode() != null) {
                    return new ManagementException("the operation ended Failed", null, value);
                }
            } catch (IOException e) {
                return new EndedUnsuccessfully(response.getStatus() + " (" + error.getMessage() + ")");
            }
            return new EndedUnsuccessfully(response.getStatus() + " (" + error.getMessage() + ")");
        }
        return new EndedUnsuccessfully(response.getStatus().toString());
    }

    /** An operation that ended unsuccessfully without saying why in Azure's error format. */
    static final class EndedUnsuccessfully extends RuntimeException {
        EndedUnsuccessfully(String how) {
            super("the operation ended " + how);
        }
    }

    private static Duration gap(Duration retryAfter) {
        if (retryAfter == null || retryAfter.isZero() || retryAfter.isNegative()) {
            return UNSAID_POLL_GAP;
        }
        if (retryAfter.compareTo(SHORTEST_POLL_GAP) < 0) {
            return SHORTEST_POLL_GAP;
        }
        return retryAfter.compareTo(LONGEST_POLL_GAP) > 0 ? LONGEST_POLL_GAP : retryAfter;
    }
}
