package io.hpcscale.cloud.azure.fake;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operations the fake has accepted, and the 202/200 replies that point the SDK at them.
 *
 * <p>ARM's compute provider answers an accepted action with {@code Azure-AsyncOperation} (the status URL the
 * SDK polls) and, for POST and DELETE, {@code Location} (the URL it reads the result from once done).
 */
public final class Operations {
    private final Map<String, Operation> operations = new ConcurrentHashMap<>();
    private final Settings settings;
    private final String subscriptionId;

    Operations(Settings settings, String subscriptionId) {
        this.settings = settings;
        this.subscriptionId = subscriptionId;
    }

    public Operation get(String id) {
        return operations.get(id);
    }

    /** A new operation in {@code location}, shaped by the request's fault outcome if it has one. */
    Operation begin(String location, Fault.Outcome outcome) {
        Clock clock = settings.clock();
        Instant now = clock.instant();
        Duration duration = outcome != null && !outcome.duration().isZero()
            ? outcome.duration() : settings.operationDuration();
        Operation operation = outcome != null && outcome.fails()
            ? new Operation(UUID.randomUUID().toString(), location, now, now.plus(duration), outcome.status(),
                outcome.code(), outcome.message(), outcome.outerCode())
            : new Operation(UUID.randomUUID().toString(), location, now, now.plus(duration), "Succeeded", null,
                null, null);
        operations.put(operation.id(), operation);
        return operation;
    }

    /** 202 with both headers and no body: how ARM accepts POST actions and DELETE. */
    ArmResponse accepted(ArmRequest request, Operation operation) {
        return withStatusHeader(ArmResponse.empty(202), request, operation)
            .header("Location", resultUrl(request, operation));
    }

    /** Adds Azure-AsyncOperation (and Retry-After, if set) to a PUT or PATCH reply that carries the resource. */
    ArmResponse withStatusHeader(ArmResponse response, ArmRequest request, Operation operation) {
        return retryAfter(response.header("Azure-AsyncOperation", statusUrl(request, operation)));
    }

    /**
     * The same for another resource provider. The standby pool examples give only a placeholder status URL
     * ({@code https://contoso.com/operationstatus}); the path here is the fake's own, under the provider's location,
     * and the SDK polls whatever the header says.
     */
    ArmResponse withStatusHeader(ArmResponse response, ArmRequest request, Operation operation, String provider) {
        return retryAfter(response.header("Azure-AsyncOperation", request.base() + "/subscriptions/"
            + subscriptionId + "/providers/" + provider + "/locations/" + operation.location()
            + "/operationStatuses/" + operation.id() + "?api-version=" + apiVersion(request)));
    }

    /** Retry-After as {@link Settings#retryAfterSeconds} says: none when 0, as real Compute often sends none. */
    ArmResponse retryAfter(ArmResponse response) {
        int seconds = settings.retryAfterSeconds();
        return seconds > 0 ? response.header("Retry-After", Integer.toString(seconds)) : response;
    }

    String statusUrl(ArmRequest request, Operation operation) {
        return request.base() + "/subscriptions/" + subscriptionId + "/providers/Microsoft.Compute/locations/"
            + operation.location() + "/operations/" + operation.id() + "?api-version=" + apiVersion(request);
    }

    String resultUrl(ArmRequest request, Operation operation) {
        return request.base() + "/subscriptions/" + subscriptionId + "/providers/Microsoft.Compute/locations/"
            + operation.location() + "/operations/" + operation.id() + "?monitor=true&api-version="
            + apiVersion(request);
    }

    java.time.Duration overprovisionedExtrasLinger() {
        return settings.overprovisionedExtrasLinger();
    }

    Instant now() {
        return settings.clock().instant();
    }

    private static String apiVersion(ArmRequest request) {
        String version = request.query("api-version");
        return version == null ? "2025-04-01" : version;
    }
}
