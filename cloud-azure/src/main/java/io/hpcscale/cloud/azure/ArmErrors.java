package io.hpcscale.cloud.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.management.exception.ManagementError;
import com.azure.core.management.exception.ManagementException;
import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hpcscale.scaler.cloud.AccessDeniedException;
import io.hpcscale.scaler.cloud.CapacityException;
import io.hpcscale.scaler.cloud.CloudException;
import io.hpcscale.scaler.cloud.NotFoundException;
import io.hpcscale.scaler.cloud.QuotaException;
import io.hpcscale.scaler.cloud.ThrottledException;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what the management SDK throws into the provider's typed errors, each saying what was asked, what Azure
 * answered and, where an administrator can act, what to do.
 */
final class ArmErrors {
    /**
     * Codes Azure gives when a region or zone has no room for the VM size, or a Spot price is below the market's:
     * try later or elsewhere (Microsoft Learn, Spot error codes). They may be the top-level code or a detail's.
     */
    static final Set<String> CAPACITY_CODES = Set.of("allocationfailed", "zonalallocationfailed",
            "skunotavailable", "overconstrainedallocationrequest", "overconstrainedzonalallocationrequest",
            "allocationfailedvmseriesnotavailable", "spotpricegreaterthanprovidedmaxprice");
    /** When Resource Manager throttles without saying for how long. */
    static final Duration DEFAULT_THROTTLE = Duration.ofSeconds(60);

    private static final Pattern QUOTA = Pattern.compile("Current Limit:\\s*(\\d+),\\s*Current Usage:\\s*(\\d+)",
            Pattern.CASE_INSENSITIVE);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DENIED_ACTION = Pattern.compile("perform action '([^']+)' over scope '([^']+)'");

    private ArmErrors() {
    }

    /**
     * @param asked            what the call was for, e.g. "start 3 instances of scale set hb in resource group rg"
     * @param coresPerInstance the VM size's vCPUs, to turn a quota message into instances that still fit; 0 unknown
     */
    static CloudException map(String asked, Throwable failure, int coresPerInstance) {
        Throwable e = unwrap(failure);
        if (e instanceof ClientAuthenticationException auth) {
            return new AccessDeniedException("cannot " + asked + ": signing in to Azure failed (" + firstLine(auth)
                    + "); on an Azure VM give it a managed identity (azure.credential), elsewhere sign in with "
                    + "az login or set AZURE_CLIENT_ID, AZURE_TENANT_ID and a federated token");
        }
        if (e instanceof ManagementException management) {
            return management(asked, management, coresPerInstance);
        }
        if (e instanceof HttpResponseException http) {
            return byStatus(asked, http.getResponse() == null ? 0 : http.getResponse().getStatusCode(), null,
                    firstLine(http), retryAfter(http), coresPerInstance);
        }
        if (e instanceof FlexibleDriver.NotCalled notCalled) {
            return new CloudException("cannot " + asked + ": " + notCalled.getMessage());
        }
        if (e instanceof LongOperations.EndedUnsuccessfully ended) {
            return new CloudException("cannot " + asked + ": " + ended.getMessage());
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        String what = e.getClass().getSimpleName() + (e.getMessage() != null ? ": " + firstLine(e) : "");
        return new CloudException("cannot " + asked + ": Resource Manager could not be reached or did not answer ("
                + what + ")", e);
    }

    private static CloudException management(String asked, ManagementException e, int coresPerInstance) {
        ManagementError error = e.getValue();
        String code = error != null ? error.getCode() : null;
        String message = error != null && error.getMessage() != null ? error.getMessage() : firstLine(e);
        int status = e.getResponse() != null ? e.getResponse().getStatusCode() : 0;
        // A capacity code under OperationNotAllowed or BadRequest is the reason: it decides what the scaler does.
        ManagementError detail = capacityDetail(error);
        if (detail != null) {
            code = detail.getCode();
            message = detail.getMessage() != null ? detail.getMessage() : message;
        }
        String bucket = throttledBucket(error);
        if (bucket != null) {
            message = message + " [" + bucket + "]";
        }
        return byStatus(asked, status, code, message, retryAfter(e), coresPerInstance);
    }

    /**
     * The Compute budget a 429 ran out of, as its detail names it: code {@code TooManyRequests}, target the
     * operation group, message a JSON object with the window's {@code endTime} (Microsoft Learn, troubleshooting
     * API throttling errors). "Compute budget HighCostGetVMScaleSet30Min, spent until 2026-11-26T10:20:00Z", or
     * null when the reply names none.
     */
    static String throttledBucket(ManagementError error) {
        if (error == null || error.getDetails() == null) {
            return null;
        }
        for (ManagementError detail : error.getDetails()) {
            if (!"TooManyRequests".equalsIgnoreCase(detail.getCode()) || detail.getTarget() == null) {
                continue;
            }
            String end = null;
            try {
                JsonNode window = JSON.readTree(detail.getMessage() == null ? "{}" : detail.getMessage());
                end = window.path("endTime").asText(null);
            } catch (IOException e) {
                // A message that is not the usual JSON: the bucket's name is still worth saying.
            }
            return "Compute budget " + detail.getTarget() + (end == null ? "" : ", spent until " + end);
        }
        return null;
    }

    /**
     * Whether Resource Manager throttled the request: a 429, whose top code Compute sends as
     * {@code OperationNotAllowed} with a {@code TooManyRequests} detail, so that its code alone does not tell.
     */
    static boolean throttled(Throwable failure) {
        if (!(unwrap(failure) instanceof ManagementException management)) {
            return false;
        }
        return (management.getResponse() != null && management.getResponse().getStatusCode() == 429)
                || throttledBucket(management.getValue()) != null;
    }

    /** The first error among the details (at any depth) whose code is a capacity code, or null. */
    private static ManagementError capacityDetail(ManagementError error) {
        if (error == null || error.getDetails() == null) {
            return null;
        }
        for (ManagementError detail : error.getDetails()) {
            if (detail.getCode() != null && CAPACITY_CODES.contains(detail.getCode().toLowerCase(Locale.ROOT))) {
                return detail;
            }
            ManagementError deeper = capacityDetail(detail);
            if (deeper != null) {
                return deeper;
            }
        }
        return null;
    }

    /**
     * The code that decides what the scaler does: a capacity code among the error's details, else its own code;
     * null when the failure is not one of Azure's errors.
     */
    static String code(Throwable failure) {
        if (!(unwrap(failure) instanceof ManagementException management) || management.getValue() == null) {
            return null;
        }
        ManagementError detail = capacityDetail(management.getValue());
        return detail != null ? detail.getCode() : management.getValue().getCode();
    }

    /** Whether this code is one of Azure's capacity codes. */
    static boolean isCapacity(String code) {
        return code != null && CAPACITY_CODES.contains(code.toLowerCase(Locale.ROOT));
    }

    /** Azure's {@code error} object of a reply body, as the SDK reads it, or null when there is none. */
    static ManagementError parseError(byte[] body) throws IOException {
        if (body == null || body.length == 0) {
            return null;
        }
        JsonNode root = JSON.readTree(body);
        // Resource Manager wraps it in "error"; Compute's throttling replies have been seen without the wrapper.
        JsonNode error = root.has("error") ? root.get("error") : root.has("code") ? root : null;
        if (error == null || !error.isObject()) {
            return null;
        }
        try (JsonReader reader = JsonProviders.createReader(JSON.writeValueAsBytes(error))) {
            return ManagementError.fromJson(reader);
        }
    }

    private static CloudException byStatus(String asked, int status, String code, String message,
            Duration retryAfter, int coresPerInstance) {
        String codeKey = code == null ? "" : code.toLowerCase(Locale.ROOT);
        String answered = (code != null ? code + ": " : "HTTP " + status + ": ") + message;
        if (status == 429 || codeKey.equals("toomanyrequests") || codeKey.equals("subscriptionrequeststhrottled")) {
            Duration wait = retryAfter != null ? retryAfter : DEFAULT_THROTTLE;
            return new ThrottledException("cannot " + asked + ": Azure throttles this subscription's requests ("
                    + answered + "); the scaler holds back its pools' calls for " + wait.toSeconds() + " s", wait);
        }
        if (CAPACITY_CODES.contains(codeKey)) {
            return new CapacityException("cannot " + asked + ": Azure has no capacity for it (" + answered + ")");
        }
        if (codeKey.equals("operationnotallowed") && message.toLowerCase(Locale.ROOT).contains("quota")) {
            return new QuotaException("cannot " + asked + ": it exceeds a quota (" + answered + "); ask for more "
                    + "in the portal's Quotas page, or lower the pool's max", instancesThatFit(message,
                    coresPerInstance));
        }
        if (status == 404 || codeKey.equals("resourcenotfound") || codeKey.equals("resourcegroupnotfound")
                || codeKey.equals("notfound")) {
            return new NotFoundException("cannot " + asked + ": Azure does not find it (" + answered + "); check the "
                    + "pool's azure.subscriptionId, azure.resourceGroup and azure.scaleSet");
        }
        if (status == 403 || status == 401 || codeKey.equals("authorizationfailed")) {
            return new AccessDeniedException("cannot " + asked + ": " + denial(status, message));
        }
        return new CloudException("cannot " + asked + ": " + answered);
    }

    /** The action and scope Azure refused, and the role that allows it. */
    private static String denial(int status, String message) {
        Matcher m = DENIED_ACTION.matcher(message);
        if (m.find()) {
            return "the scaler's identity may not perform " + m.group(1) + " on " + m.group(2) + ". Assign it the "
                    + "role in docs/security.md (or Virtual Machine Contributor) on that scope";
        }
        return (status == 401 ? "Azure refused the scaler's token" : "Azure refused the scaler's identity")
                + " (" + message + "); assign the role in docs/security.md on the scale set's resource group";
    }

    /** How many more instances the quota has room for, from Azure's "Current Limit: L, Current Usage: U". */
    static Integer instancesThatFit(String message, int coresPerInstance) {
        Matcher m = QUOTA.matcher(message);
        if (!m.find() || coresPerInstance <= 0) {
            return null;
        }
        long free = Long.parseLong(m.group(1)) - Long.parseLong(m.group(2));
        return (int) Math.max(0, free / coresPerInstance);
    }

    private static Duration retryAfter(HttpResponseException e) {
        if (e.getResponse() == null) {
            return null;
        }
        return ArmRetryStrategy.retryAfter(e.getResponse().getHeaderValue("Retry-After")).orElse(null);
    }

    /** The SDK's own exception, or the I/O failure under the wrappers reactor and executors put around it. */
    private static Throwable unwrap(Throwable e) {
        Throwable current = e;
        while (!(current instanceof HttpResponseException) && !(current instanceof ClientAuthenticationException)
                && !(current instanceof LongOperations.EndedUnsuccessfully)
                && !(current instanceof FlexibleDriver.NotCalled)
                && (current instanceof RuntimeException || current instanceof java.util.concurrent.ExecutionException)
                && current.getCause() != null && current.getCause() != current) {
            current = current.getCause();
        }
        return current;
    }

    private static String firstLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
