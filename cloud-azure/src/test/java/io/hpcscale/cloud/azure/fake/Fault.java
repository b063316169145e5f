package io.hpcscale.cloud.azure.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Something to go wrong with a matching request; see {@link Faults#inject} for how it is matched.
 *
 * <p>A {@link Reply} replaces the answer, a {@link Hang} holds the connection, and an {@link Outcome} lets the
 * request be accepted but changes how its long-running operation ends.
 */
public sealed interface Fault {

    /** Answer with this status, headers and body instead of handling the request. */
    record Reply(int status, Map<String, String> headers, ObjectNode body) implements Fault {
    }

    /** Hold the request this long before handling it normally (if the server is still up by then). */
    record Hang(Duration duration) implements Fault {
    }

    /**
     * Accept the request, but let its operation stay InProgress for {@code duration} and then end with
     * {@code status}. Only instances named in {@code applyTo} change (null: all of them, as normal); when the
     * operation fails, a start leaves the others deallocated with {@code ProvisioningState/failed/<code>}.
     */
    record Outcome(Duration duration, String status, String code, String message, Set<String> applyTo,
                   String outerCode) implements Fault {
        Outcome(Duration duration, String status, String code, String message, Set<String> applyTo) {
            this(duration, status, code, message, applyTo, null);
        }

        boolean fails() {
            return !"Succeeded".equals(status);
        }
    }

    /**
     * 429 as the compute provider sends it: code OperationNotAllowed with a TooManyRequests detail, and an
     * integer Retry-After (the SDK cannot parse an HTTP-date there).
     */
    static Reply tooManyRequests(int retryAfterSeconds) {
        java.time.Instant now = java.time.Instant.now();
        ObjectNode body = ArmException.errorBody("OperationNotAllowed",
            "The server rejected the request because too many requests have been received for this subscription.",
            null);
        ObjectNode detail = Json.object().put("code", "TooManyRequests").put("target", "HighCostGetVMScaleSet30Min")
            .put("message", "{\"operationGroup\":\"HighCostGetVMScaleSet30Min\",\"startTime\":\"" + now
                + "\",\"endTime\":\"" + now.plusSeconds(retryAfterSeconds) + "\",\"allowedRequestCount\":900,"
                + "\"measuredRequestCount\":912}");
        ((ObjectNode) body.get("error")).set("details", Json.array().add(detail));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Retry-After", Integer.toString(retryAfterSeconds));
        headers.put("x-ms-ratelimit-remaining-resource",
            "Microsoft.Compute/HighCostGetVMScaleSet3Min;0,Microsoft.Compute/HighCostGetVMScaleSet30Min;0");
        return new Reply(429, headers, body);
    }

    /** 429 as ARM's own front door sends it when the subscription's read or write bucket is empty. */
    static Reply subscriptionThrottled(int retryAfterSeconds) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Retry-After", Integer.toString(retryAfterSeconds));
        headers.put("x-ms-ratelimit-remaining-subscription-reads", "0");
        return new Reply(429, headers, ArmException.errorBody("SubscriptionRequestsThrottled",
            "Number of requests for subscription exceeded the limit. Please try again after '" + retryAfterSeconds
                + "' seconds.", null));
    }

    /** 409 OperationNotAllowed with the message Azure gives when a resize would exceed a vCPU quota. */
    static Reply quotaExceeded(String family, String location, int limit, int usage, int required) {
        String message = "Operation could not be completed as it results in exceeding approved " + family
            + " Cores quota. Additional details - Deployment Model: Resource Manager, Location: " + location
            + ", Current Limit: " + limit + ", Current Usage: " + usage + ", Additional Required: " + required
            + ", (Minimum) New Limit Required: " + (usage + required)
            + ". Submit a request for Quota increase at https://aka.ms/ProdportalCRP/#blade/Microsoft_Azure_Capacity/"
            + "UsageAndQuota.ReactView/Parameters/. Please read more about quota limits at"
            + " https://docs.microsoft.com/en-us/azure/azure-supportability/per-vm-quota-requests";
        return error(409, "OperationNotAllowed", message);
    }

    static Reply error(int status, String code, String message) {
        return new Reply(status, new LinkedHashMap<>(), ArmException.errorBody(code, message, null));
    }

    static Reply resourceNotFound(String type, String name, String resourceGroup) {
        ArmException e = ArmException.resourceNotFound(type, name, resourceGroup);
        return new Reply(e.status(), new LinkedHashMap<>(), e.body());
    }

    static Reply resourceGroupNotFound(String resourceGroup) {
        ArmException e = ArmException.resourceGroupNotFound(resourceGroup);
        return new Reply(e.status(), new LinkedHashMap<>(), e.body());
    }

    static Hang hang(Duration duration) {
        return new Hang(duration);
    }

    /** The operation is accepted and then ends Failed with this code (AllocationFailed, SkuNotAvailable, ...). */
    static Outcome operationFails(String code) {
        return new Outcome(Duration.ZERO, "Failed", code, messageFor(code), Set.of());
    }

    /** A batch where only {@code started} get their way; the operation still ends Failed with {@code code}. */
    static Outcome operationPartlyFails(String code, String... started) {
        return new Outcome(Duration.ZERO, "Failed", code, messageFor(code), Set.of(started));
    }

    /**
     * The operation fails with a capacity code that sits in {@code error.details[]} under {@code outerCode}
     * ({@code OperationNotAllowed}, {@code BadRequest}), as Azure has been seen to send them (Microsoft Learn, Spot
     * error codes; ../shared/notes/azure-as-it-really-behaves.md).
     */
    static Outcome operationFailsWithDetail(String outerCode, String code) {
        return new Outcome(Duration.ZERO, "Failed", code, messageFor(code), Set.of(), outerCode);
    }

    /** A call refused at once with a capacity code nested in {@code error.details[]} under {@code outerCode}. */
    static Reply refusedWithDetail(int status, String outerCode, String code) {
        ObjectNode body = ArmException.errorBody(outerCode, "The operation could not be completed. See details.",
            null);
        ((ObjectNode) body.get("error")).set("details", Json.array().add(Json.object().put("code", code)
            .put("message", messageFor(code))));
        return new Reply(status, new LinkedHashMap<>(), body);
    }

    static Outcome operationCanceled() {
        return new Outcome(Duration.ZERO, "Canceled", "OperationPreempted",
            "Operation execution has been preempted by a more recent operation.", Set.of());
    }

    /** The operation takes effect at once but reports InProgress for this long (on the fake's clock). */
    static Outcome slowOperation(Duration duration) {
        return new Outcome(duration, "Succeeded", null, null, null);
    }

    private static String messageFor(String code) {
        return switch (code) {
            case "AllocationFailed" -> "Allocation failed. We do not have sufficient capacity for the requested VM"
                + " size in this region. Read more about improving likelihood of allocation success at"
                + " http://aka.ms/allocation-guidance";
            case "ZonalAllocationFailed" -> "Allocation failed. We do not have sufficient capacity for the requested"
                + " VM size in this zone. Read more about improving likelihood of allocation success at"
                + " http://aka.ms/allocation-guidance";
            case "SkuNotAvailable" -> "The requested VM size for resource is currently not available in location."
                + " Please try another size or deploy to a different location or different zone.";
            case "SpotPriceGreaterThanProvidedMaxPrice" -> "Unable to perform operation as the maximum price"
                + " specified is less than the current Spot price for the VM size in this region.";
            case "OverconstrainedAllocationRequest" -> "Allocation failed. VM(s) with the following constraints"
                + " cannot be allocated, because the condition is too restrictive. Please remove some constraints"
                + " and try again.";
            case "OverconstrainedResumeFromHibernatedStateAllocationRequest" -> "Allocation failed. VM(s) with the"
                + " following constraints can't be allocated, because the condition is too restrictive. Remove some"
                + " constraints and try again. Constraints applied are: Networking Constraints (such as Accelerated"
                + " Networking or IPv6), Resuming from hibernated state (retry starting the VM after some time or"
                + " alternatively stop-deallocate the VM and try starting the VM again).";
            default -> "The operation failed: " + code + ".";
        };
    }
}
