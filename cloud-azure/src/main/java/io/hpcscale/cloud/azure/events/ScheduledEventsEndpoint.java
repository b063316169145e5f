package io.hpcscale.cloud.azure.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Scheduled Events endpoint of the instance metadata service: {@code GET /metadata/scheduledevents} with
 * {@code Metadata: true} for the document, {@code POST} of {@code {"StartRequests":[{"EventId":...}]}} to let an event
 * start before its {@code NotBefore}. Never through a proxy, as IMDS requires. The service is switched on for a VM by
 * its first request, which Microsoft Learn says may take up to two minutes to answer; hence the long first timeout.
 */
public final class ScheduledEventsEndpoint {
    static final String PATH = "/metadata/scheduledevents?api-version=2020-07-01";
    /** "Thu, 22 Jul 2021 04:50:17 GMT", as the service prints {@code NotBefore}. */
    private static final DateTimeFormatter NOT_BEFORE = DateTimeFormatter.RFC_1123_DATE_TIME;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI uri;
    private final Duration firstTimeout;
    private final Duration timeout;
    private final HttpClient http;
    private boolean answered;

    /** The endpoint did not answer, or answered something that is not the document. */
    public static final class EndpointException extends Exception {
        EndpointException(String message) {
            super(message);
        }
    }

    public ScheduledEventsEndpoint(URI endpoint, Duration firstTimeout, Duration timeout) {
        this.uri = URI.create(endpoint.toString().replaceAll("/+$", "") + PATH);
        this.firstTimeout = firstTimeout;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).connectTimeout(timeout).build();
    }

    /** The events of this VM's group: of other VMs too, as their {@code Resources} say. */
    public List<ScheduledEvent> read() throws EndpointException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(uri).header("Metadata", "true")
                .timeout(answered ? timeout : firstTimeout).GET().build();
        String body = send(request, "GET");
        answered = true;
        return parse(body);
    }

    /** Lets the event start now rather than at its {@code NotBefore}. */
    public void acknowledge(String eventId) throws EndpointException, InterruptedException {
        ObjectNode json = JSON.createObjectNode();
        json.putArray("StartRequests").addObject().put("EventId", eventId);
        send(HttpRequest.newBuilder(uri).header("Metadata", "true").header("Content-Type", "application/json")
                .timeout(timeout).POST(HttpRequest.BodyPublishers.ofString(json.toString())).build(), "POST");
    }

    private String send(HttpRequest request, String method) throws EndpointException, InterruptedException {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new EndpointException("the Scheduled Events endpoint " + uri + " did not answer " + method + " ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                    + "): this program runs on an Azure VM; it tries again at its next poll");
        }
        if (response.statusCode() != 200) {
            throw new EndpointException("the Scheduled Events endpoint answered HTTP " + response.statusCode() + " to "
                    + method + " " + PATH + ": " + abbreviate(response.body()));
        }
        return response.body();
    }

    static List<ScheduledEvent> parse(String body) throws EndpointException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new EndpointException("the Scheduled Events endpoint answered something that is not JSON: "
                    + abbreviate(body));
        }
        JsonNode events = root == null ? null : root.get("Events");
        if (events == null || !events.isArray()) {
            throw new EndpointException("the Scheduled Events document has no Events array: " + abbreviate(body));
        }
        List<ScheduledEvent> list = new ArrayList<>();
        for (JsonNode event : events) {
            String id = event.path("EventId").asText("");
            String type = event.path("EventType").asText("");
            if (id.isEmpty() || type.isEmpty()) {
                throw new EndpointException("a Scheduled Event has no EventId or EventType: " + abbreviate(
                        event.toString()));
            }
            List<String> resources = new ArrayList<>();
            event.path("Resources").forEach(name -> resources.add(name.asText()));
            list.add(new ScheduledEvent(id, type, resources, "Started".equals(event.path("EventStatus").asText()),
                    notBefore(event.path("NotBefore").asText("")), event.path("Description").asText("")));
        }
        return list;
    }

    private static Instant notBefore(String text) throws EndpointException {
        if (text.isBlank()) {
            return null;
        }
        try {
            return ZonedDateTime.parse(text, NOT_BEFORE).toInstant();
        } catch (DateTimeParseException e) {
            throw new EndpointException("a Scheduled Event's NotBefore is not a date as the service writes it "
                    + "(Thu, 22 Jul 2021 04:50:17 GMT): '" + text + "'");
        }
    }

    private static String abbreviate(String text) {
        String flat = text == null ? "" : text.replaceAll("\\s+", " ").strip();
        return flat.length() <= 200 ? flat : flat.substring(0, 200) + "...";
    }
}
