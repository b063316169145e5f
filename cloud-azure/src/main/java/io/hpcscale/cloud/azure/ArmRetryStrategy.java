package io.hpcscale.cloud.azure;

import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.ExponentialBackoff;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryStrategy;
import java.time.Duration;
import java.util.Optional;

/**
 * The SDK's retries of throttled (429), timed-out and failed (5xx) requests, but only while Resource Manager asks
 * to wait a few seconds. A longer Retry-After ends the call at once as throttled: the scaler then holds back every
 * pool of the subscription until then, rather than one pool's call sleeping through several cycles while the
 * others keep spending the subscription's request budget.
 */
final class ArmRetryStrategy implements RetryStrategy {
    static final Duration LONGEST_WAIT_IN_CALL = Duration.ofSeconds(10);

    private final ExponentialBackoff backoff = new ExponentialBackoff(new ExponentialBackoffOptions()
            .setMaxRetries(3).setBaseDelay(Duration.ofMillis(800)).setMaxDelay(Duration.ofSeconds(8)));

    @Override
    public int getMaxRetries() {
        return backoff.getMaxRetries();
    }

    @Override
    public Duration calculateRetryDelay(int retryAttempts) {
        return backoff.calculateRetryDelay(retryAttempts);
    }

    @Override
    public boolean shouldRetry(HttpResponse response) {
        if (!backoff.shouldRetry(response)) {
            return false;
        }
        return retryAfter(response.getHeaderValue("Retry-After"))
                .map(wait -> wait.compareTo(LONGEST_WAIT_IN_CALL) <= 0).orElse(true);
    }

    /** Retry-After in whole seconds, the only form Resource Manager sends; empty when absent or not a number. */
    static Optional<Duration> retryAfter(String header) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(header.strip()))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
