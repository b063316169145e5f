package io.hpcscale.cloud.azure.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * The instance metadata service of a VM in a scale set's placement group, as Microsoft Learn ("Azure Metadata
 * Service: Scheduled Events for Linux VMs", api-version 2020-07-01) documents it and a VM prints it:
 * <ul>
 *   <li>{@code GET /metadata/instance} answers the VM's document; {@code GET /metadata/scheduledevents} the events
 *       document, {@code {"DocumentIncarnation": n, "Events": [...]}}, each event with {@code EventId},
 *       {@code EventStatus} (Scheduled, Started), {@code EventType}, {@code ResourceType}, {@code Resources},
 *       {@code NotBefore} ("Thu, 22 Jul 2021 04:50:17 GMT"; empty once started), {@code Description},
 *       {@code EventSource} and {@code DurationInSeconds} (-1 when unknown);</li>
 *   <li>the same events go to every VM of the placement group: "check the Resources field in the event to identify
 *       which VMs are affected";</li>
 *   <li>without the header {@code Metadata: true}, HTTP 400;</li>
 *   <li>{@code POST} of {@code {"StartRequests": [{"EventId": ...}]}} approves an event, which then starts: its status
 *       becomes Started and the incarnation changes, as it does whenever the document changes.</li>
 * </ul>
 */
public final class ScheduledEventsImitation implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter NOT_BEFORE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private final HttpServer server;
    private final String vmName;
    private final List<ObjectNode> events = new ArrayList<>();
    private final List<String> startRequests = new ArrayList<>();
    private long incarnation = 1;
    private volatile boolean failing;

    public ScheduledEventsImitation(String vmName) throws IOException {
        this.vmName = vmName;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/metadata/instance", this::instance);
        server.createContext("/metadata/scheduledevents", this::events);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** An event for these VMs, scheduled; {@code source} is Platform or User. */
    public synchronized String schedule(String type, Instant notBefore, String source, String... vms) {
        String id = java.util.UUID.randomUUID().toString().toUpperCase(java.util.Locale.ROOT);
        ObjectNode event = JSON.createObjectNode();
        event.put("EventId", id);
        event.put("EventStatus", "Scheduled");
        event.put("EventType", type);
        event.put("ResourceType", "VirtualMachine");
        ArrayNode resources = event.putArray("Resources");
        for (String vm : vms) {
            resources.add(vm);
        }
        event.put("NotBefore", NOT_BEFORE.format(notBefore));
        event.put("Description", "");
        event.put("EventSource", source);
        event.put("DurationInSeconds", -1);
        events.add(event);
        incarnation++;
        return id;
    }

    /** The event is over: it leaves the document. */
    public synchronized void end(String eventId) {
        events.removeIf(e -> e.path("EventId").asText().equals(eventId));
        incarnation++;
    }

    public synchronized List<String> startRequests() {
        return List.copyOf(startRequests);
    }

    public synchronized boolean started(String eventId) {
        return events.stream().anyMatch(e -> e.path("EventId").asText().equals(eventId)
                && e.path("EventStatus").asText().equals("Started"));
    }

    /** The service stops answering, as it does while the host is being serviced. */
    public void failing(boolean failing) {
        this.failing = failing;
    }

    private void instance(HttpExchange exchange) throws IOException {
        ObjectNode document = JSON.createObjectNode();
        ObjectNode compute = document.putObject("compute");
        compute.put("name", vmName);
        compute.put("vmScaleSetName", "spot");
        compute.put("resourceId", "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/hpc/providers/"
                + "Microsoft.Compute/virtualMachineScaleSets/spot/virtualMachines/" + vmName.replaceAll(".*_", ""));
        compute.putObject("osProfile").put("computerName", vmName.replace("_", ""));
        answer(exchange, metadataAsked(exchange) ? 200 : 400, metadataAsked(exchange) ? document.toString()
                : "{\"error\":\"Bad request. Required metadata header not specified\"}");
    }

    private synchronized void events(HttpExchange exchange) throws IOException {
        if (failing) {
            exchange.close();
            return;
        }
        if (!metadataAsked(exchange)) {
            answer(exchange, 400, "{\"error\":\"Bad request. Required metadata header not specified\"}");
            return;
        }
        if ("POST".equals(exchange.getRequestMethod())) {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            for (JsonNode request : body.path("StartRequests")) {
                String id = request.path("EventId").asText();
                startRequests.add(id);
                for (ObjectNode event : events) {
                    if (event.path("EventId").asText().equals(id)) {
                        event.put("EventStatus", "Started");
                        event.put("NotBefore", "");
                        incarnation++;
                    }
                }
            }
            answer(exchange, 200, "");
            return;
        }
        ObjectNode document = JSON.createObjectNode();
        document.put("DocumentIncarnation", incarnation);
        ArrayNode list = document.putArray("Events");
        events.forEach(list::add);
        answer(exchange, 200, document.toString());
    }

    private static boolean metadataAsked(HttpExchange exchange) {
        String query = exchange.getRequestURI().getQuery();
        return "true".equals(exchange.getRequestHeaders().getFirst("Metadata")) && query != null
                && query.contains("api-version=");
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
