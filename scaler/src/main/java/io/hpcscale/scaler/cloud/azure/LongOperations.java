package io.hpcscale.scaler.cloud.azure;

import com.azure.core.management.exception.ManagementError;
import com.azure.core.management.exception.ManagementException;
import com.azure.core.management.polling.PollResult;
import com.azure.core.util.polling.LongRunningOperationStatus;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.azure.core.util.polling.PollResponse;
import com.azure.core.util.polling.SyncPoller;
import io.hpcscale.common.config.Durations;
import io.hpcscale.scaler.cloud.CallGate;
import java.time.Duration;

/**
 * Waits for Resource Manager's long-running operations (start, deallocate, delete, resize) with a bound. An
 * operation outlasting the bound, or still running when the scaler shuts down, goes on in Azure: the caller records
 * it as unfinished and the next listing shows what it did, so nobody waits on it and nothing is lost.
 */
final class LongOperations {
    /** How often a running operation is polled at most, whatever Retry-After says. */
    private static final Duration LONGEST_POLL_GAP = Duration.ofSeconds(15);
    private static final Duration SHORTEST_POLL_GAP = Duration.ofMillis(200);
    private static final long GATE_CHECK_MILLIS = 500;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Duration bound;
    private final CallGate gate;

    LongOperations(Duration bound, CallGate gate) {
        this.bound = bound;
        this.gate = gate;
    }

    /**
     * @return null when the operation succeeded, or why it is unfinished
     * @throws RuntimeException the SDK's error when the operation failed or was cancelled
     */
    String await(SyncPoller<?, ?> poller) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        PollResponse<?> response = poller.poll();
        while (!response.getStatus().isComplete()) {
            Duration gap = clamp(response.getRetryAfter());
            long wakeAt = System.nanoTime() + gap.toNanos();
            while (System.nanoTime() < wakeAt) {
                if (!gate.open()) {
                    return "the scaler stopped waiting for it (" + gate.closedBecause() + ")";
                }
                if (System.nanoTime() >= deadline) {
                    return "still running after azure.operationTimeout (" + Durations.format(bound) + ")";
                }
                Thread.sleep(Math.max(1, Math.min(GATE_CHECK_MILLIS, (wakeAt - System.nanoTime()) / 1_000_000)));
            }
            response = poller.poll();
        }
        if (response.getStatus() != LongRunningOperationStatus.SUCCESSFULLY_COMPLETED) {
            throw failure(response);
        }
        return null;
    }

    /**
     * Azure's error of a failed or cancelled operation ({@code AllocationFailed}, ...), as the SDK would throw it:
     * the poll result carries the operation's last response, whose body says why.
     */
    private static RuntimeException failure(PollResponse<?> response) {
        if (response.getValue() instanceof PollResult<?> result && result.getError() != null) {
            PollResult.Error error = result.getError();
            try {
                JsonNode body = JSON.readTree(error.getResponseBody() == null ? "{}" : error.getResponseBody());
                JsonNode detail = body.path("error");
                if (detail.hasNonNull("code")) {
                    return new ManagementException("the operation ended " + body.path("status").asText("Failed"),
                            null, new ManagementError(detail.path("code").asText(),
                                    detail.path("message").asText(error.getMessage())));
                }
            } catch (JsonProcessingException e) {
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

    private static Duration clamp(Duration retryAfter) {
        if (retryAfter == null || retryAfter.compareTo(SHORTEST_POLL_GAP) < 0) {
            return retryAfter == null ? Duration.ofSeconds(1) : SHORTEST_POLL_GAP;
        }
        return retryAfter.compareTo(LONGEST_POLL_GAP) > 0 ? LONGEST_POLL_GAP : retryAfter;
    }
}
