package io.hpcscale.scaler.removal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;

/**
 * The text of removal messages, version 1:
 *
 * <pre>{"version":1,"resourceId":"/subscriptions/…/virtualMachineScaleSets/render/virtualMachines/3",
 * "resourceGroup":"rg-render","scaleSet":"render","computerName":"render000003",
 * "requestedAt":"2025-03-01T12:00:00Z","requestedBy":"hpcscale-delete-me 0.1.0 on render000003","reason":"…"}</pre>
 *
 * {@code version}, {@code resourceId}, {@code scaleSet}, {@code requestedAt} and {@code requestedBy} are required;
 * {@code resourceGroup} (which must match the id's), {@code computerName} and {@code reason} may be left out. Fields
 * it does not know are ignored, so a later sender may add some; a change that older scalers must not misread takes
 * a new version, which they refuse. Senders other than hpcscale-delete-me often base64-encode queue messages (the
 * Azure Functions default), so that is read too.
 */
public final class RemovalMessageCodec {
    public static final int VERSION = 1;
    /**
     * Most characters of a poison message's text kept in its copy: with the reason and JSON escapes the copy must
     * stay under the service's 64 KiB per message, or setting it aside would fail every time.
     */
    static final int LONGEST_KEPT_BODY = 32_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    public String encode(RemovalRequest request) {
        ObjectNode json = JSON.createObjectNode();
        json.put("version", VERSION);
        json.put("resourceId", request.vm().id());
        json.put("resourceGroup", request.resourceGroup());
        json.put("scaleSet", request.scaleSet());
        if (request.computerName() != null) {
            json.put("computerName", request.computerName());
        }
        json.put("requestedAt", request.requestedAt().toString());
        json.put("requestedBy", request.requestedBy());
        if (request.reason() != null) {
            json.put("reason", request.reason());
        }
        return json.toString();
    }

    /** @throws MalformedMessageException saying what is wrong with it, in words fit for the poison queue and a log */
    public RemovalRequest decode(String body) throws MalformedMessageException {
        JsonNode json = object(body);
        JsonNode version = json.get("version");
        if (version == null) {
            throw new MalformedMessageException("it has no version: a removal request starts {\"version\":" + VERSION
                    + ",...}");
        }
        if (!version.canConvertToExactIntegral()) {
            throw new MalformedMessageException("its version " + version + " is not a whole number");
        }
        if (version.asLong() != VERSION) {
            throw new MalformedMessageException("it is version " + version.asLong() + ", and this scaler reads only "
                    + "version " + VERSION + ": upgrade hpcscale-scaler, or send version " + VERSION);
        }
        VmResourceId vm;
        try {
            vm = VmResourceId.parse(text(json, "resourceId", true));
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException("resourceId " + e.getMessage());
        }
        String group = text(json, "resourceGroup", false);
        if (group != null && !group.equalsIgnoreCase(vm.resourceGroup())) {
            throw new MalformedMessageException("resourceGroup " + group + " is not the resource group of resourceId ("
                    + vm.resourceGroup() + ")");
        }
        Instant requestedAt = instant(text(json, "requestedAt", true));
        try {
            return new RemovalRequest(vm, text(json, "scaleSet", true), text(json, "computerName", false),
                    requestedAt, text(json, "requestedBy", true), text(json, "reason", false));
        } catch (IllegalArgumentException e) {
            throw new MalformedMessageException(e.getMessage());
        }
    }

    /** The poison queue's copy of a message: why it was set aside, and its text unchanged (cut if very long). */
    public String encode(SetAside setAside) {
        ObjectNode json = JSON.createObjectNode();
        json.put("version", VERSION);
        json.put("reason", setAside.reason());
        json.put("setAsideAt", setAside.setAsideAt().toString());
        json.put("messageId", setAside.messageId());
        json.put("dequeueCount", setAside.dequeueCount());
        if (setAside.insertedAt() != null) {
            json.put("insertedAt", setAside.insertedAt().toString());
        }
        String body = setAside.body();
        if (body.length() > LONGEST_KEPT_BODY) {
            json.put("bodyLength", body.length());
            body = body.substring(0, LONGEST_KEPT_BODY);
        }
        json.put("body", body);
        return json.toString();
    }

    private static JsonNode object(String body) throws MalformedMessageException {
        if (body == null || body.isBlank()) {
            throw new MalformedMessageException("it is empty: a removal request is a JSON object, {\"version\":"
                    + VERSION + ",...}");
        }
        String text = body.strip();
        if (!text.startsWith("{")) {
            text = base64Json(text);
        }
        JsonNode json;
        try {
            json = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new MalformedMessageException("it is not JSON: " + e.getOriginalMessage());
        }
        if (json == null || !json.isObject()) {
            throw new MalformedMessageException("it is not a JSON object: a removal request is {\"version\":"
                    + VERSION + ",...}");
        }
        return json;
    }

    private static String base64Json(String text) throws MalformedMessageException {
        try {
            String decoded = new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8).strip();
            if (decoded.startsWith("{")) {
                return decoded;
            }
        } catch (IllegalArgumentException e) {
            // Not base64 either: said below.
        }
        throw new MalformedMessageException("it is neither a JSON object nor base64-encoded JSON: a removal request "
                + "is {\"version\":" + VERSION + ",...}");
    }

    private static String text(JsonNode json, String field, boolean required) throws MalformedMessageException {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw new MalformedMessageException("it lacks " + field);
            }
            return null;
        }
        if (!value.isTextual()) {
            throw new MalformedMessageException(field + " must be a string, not " + value.getNodeType()
                    .name().toLowerCase(java.util.Locale.ROOT));
        }
        if (required && value.asText().isBlank()) {
            throw new MalformedMessageException(field + " is empty");
        }
        return value.asText();
    }

    private static Instant instant(String text) throws MalformedMessageException {
        try {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.parse(text, Instant::from);
        } catch (DateTimeParseException e) {
            throw new MalformedMessageException("requestedAt " + text + " is not a time like 2025-03-01T12:00:00Z");
        }
    }
}
