package io.hpcscale.cloud.azure;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.management.exception.ManagementError;
import com.azure.core.management.exception.ManagementException;
import com.azure.core.util.Context;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A scale set's VMs with their instance views, read page by page through the management SDK's pipeline (its
 * sign-in, retries and throttling budget), rather than through the SDK's pager: a Flexible listing's next link has
 * come back with its {@code $filter} unencoded, which the JDK HTTP client refuses, so every next link is encoded
 * here before it is followed, whichever way it came (azure-sdk-for-java#36506, azure-rest-api-specs#25640).
 */
final class ArmListing {
    /** The Compute API version the SDK of this build sends (azure-resourcemanager-compute 2.55.1). */
    static final String COMPUTE_API_VERSION = "2025-04-01";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param skippedWithoutName entries the listing showed without a name (a Flexible VM being deleted): they are
     *                           left out, and their count said, never an error that ends the listing
     */
    record Result(List<AzureVm> vms, int pages, int skippedWithoutName) {
    }

    private ArmListing() {
    }

    static Result uniform(HttpPipeline pipeline, String endpoint, AzurePoolSettings pool) {
        return read(pipeline, endpoint + "subscriptions/" + enc(pool.subscriptionId()) + "/resourceGroups/"
                + enc(pool.resourceGroup()) + "/providers/Microsoft.Compute/virtualMachineScaleSets/"
                + enc(pool.scaleSet()) + "/virtualMachines?$expand=instanceView&api-version=" + COMPUTE_API_VERSION,
                false);
    }

    static Result flexible(HttpPipeline pipeline, String endpoint, AzurePoolSettings pool, String scaleSetId) {
        return read(pipeline, endpoint + "subscriptions/" + enc(pool.subscriptionId()) + "/resourceGroups/"
                + enc(pool.resourceGroup()) + "/providers/Microsoft.Compute/virtualMachines?$filter="
                + enc("'virtualMachineScaleSet/id' eq '" + scaleSetId + "'") + "&$expand=instanceView&api-version="
                + COMPUTE_API_VERSION, true);
    }

    private static Result read(HttpPipeline pipeline, String firstUrl, boolean flexible) {
        List<AzureVm> vms = new ArrayList<>();
        int pages = 0;
        int skipped = 0;
        String url = firstUrl;
        while (url != null) {
            JsonNode page = get(pipeline, url);
            pages++;
            if (!page.path("value").isArray()) {
                // An empty reply would read as "no VMs": it is no answer at all.
                throw new IllegalStateException("Resource Manager's listing page " + pages + " has no value array");
            }
            for (JsonNode vm : page.path("value")) {
                String name = vm.path("name").asText("");
                if (name.isBlank()) {
                    skipped++;
                    continue;
                }
                vms.add(vm(vm, flexible));
            }
            String next = page.path("nextLink").asText("");
            url = next.isBlank() ? null : encodedLink(next);
        }
        return new Result(vms, pages, skipped);
    }

    private static AzureVm vm(JsonNode vm, boolean flexible) {
        JsonNode properties = vm.path("properties");
        JsonNode view = properties.path("instanceView");
        String powerCode = null;
        String failure = null;
        boolean hibernated = false;
        for (JsonNode status : view.path("statuses")) {
            String code = status.path("code").asText("");
            if ("HibernationState/Hibernated".equalsIgnoreCase(code)) {
                hibernated = true;
            } else if (code.startsWith("PowerState/")) {
                powerCode = code.substring("PowerState/".length());
            } else if (code.startsWith("ProvisioningState/failed")) {
                String reason = code.length() > "ProvisioningState/failed/".length()
                        ? code.substring("ProvisioningState/failed/".length()) : "failed";
                String message = status.path("message").asText("");
                failure = message.isBlank() ? reason : reason + ": " + message;
            }
        }
        String computerName = text(properties.path("osProfile").path("computerName"));
        if (computerName == null) {
            computerName = text(view.path("computerName"));
        }
        Map<String, String> tags = new HashMap<>();
        vm.path("tags").fields().forEachRemaining(e -> tags.put(e.getKey(), e.getValue().asText()));
        String name = vm.path("name").asText();
        return new AzureVm(name, flexible ? name : vm.path("instanceId").asText(name), computerName, tags, powerCode,
                text(properties.path("provisioningState")), failure, hibernated);
    }

    private static JsonNode get(HttpPipeline pipeline, String url) {
        try (HttpResponse response = pipeline.sendSync(new HttpRequest(HttpMethod.GET, url), Context.NONE)) {
            byte[] body = response.getBodyAsBinaryData().toBytes();
            if (response.getStatusCode() / 100 != 2) {
                ManagementError error = errorOf(body);
                throw new ManagementException("Status code " + response.getStatusCode() + (error == null ? ""
                        : ", " + error.getCode() + ": " + error.getMessage()), response, error);
            }
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new IllegalStateException("Resource Manager's listing could not be read: " + e.getMessage(), e);
        }
    }

    /** Azure's error in a reply body, or null when the body is none or not JSON (a gateway's HTML page). */
    private static ManagementError errorOf(byte[] body) {
        try {
            return ArmErrors.parseError(body);
        } catch (IOException e) {
            return null;
        }
    }

    /** The link with its query encoded, whether it came encoded, half encoded or raw. */
    static String encodedLink(String link) {
        int question = link.indexOf('?');
        if (question < 0) {
            return link;
        }
        List<String> parts = new ArrayList<>();
        for (String pair : link.substring(question + 1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? null : pair.substring(eq + 1);
            String encodedName = enc(decodeEscapes(name)).replace("%24", "$");
            parts.add(value == null ? encodedName : encodedName + "=" + enc(decodeEscapes(value)));
        }
        return link.substring(0, question) + "?" + String.join("&", parts);
    }

    /** Decodes only well-formed {@code %XX} escapes, leaving everything else as it is. */
    private static String decodeEscapes(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '%' && i + 2 < bytes.length && hex(bytes[i + 1]) >= 0 && hex(bytes[i + 2]) >= 0) {
                out.write(hex(bytes[i + 1]) * 16 + hex(bytes[i + 2]));
                i += 2;
            } else {
                out.write(bytes[i]);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int hex(byte b) {
        return Character.digit(b, 16);
    }

    private static String enc(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String text(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull() || node.asText().isBlank() ? null
                : node.asText();
    }
}
