package io.hpcscale.cloud.azure.events;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One event of the Scheduled Events document, as Microsoft Learn ("Azure Metadata Service: Scheduled Events for Linux
 * VMs") describes it and VMs print it: {@code EventId}, {@code EventType}, {@code ResourceType}, {@code Resources},
 * {@code EventStatus}, {@code NotBefore}, {@code Description}, {@code EventSource}, {@code DurationInSeconds}; the
 * fields hpcscale acts on.
 *
 * @param resources the VM names it affects: the document goes to every VM of an availability set or a scale set's
 *                  placement group, so a VM acts only on events naming it
 * @param started   {@code EventStatus} is {@code Started}: it is under way, and acknowledging it means nothing
 * @param notBefore when it may start at the earliest; null once started (the field is then empty)
 */
public record ScheduledEvent(String eventId, String eventType, List<String> resources, boolean started,
        Instant notBefore, String description) {

    public ScheduledEvent {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(eventType, "eventType");
        resources = List.copyOf(resources);
    }

    /** Whether the event is about this VM. */
    public boolean affects(String vmName) {
        return resources.stream().anyMatch(name -> name.equalsIgnoreCase(vmName));
    }
}
