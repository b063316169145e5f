package io.hpcscale.scaler.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.hpcscale.scaler.cloud.Instance;
import io.hpcscale.scaler.cloud.PowerState;
import io.hpcscale.scaler.documents.StopKind;
import io.hpcscale.scaler.removal.Delivery;
import io.hpcscale.scaler.removal.RemovalMessage;
import io.hpcscale.scaler.removal.RemovalRequest;
import io.hpcscale.scaler.removal.VmResourceId;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A plan as the actuation, the dry run and the hooks read it: each action as its event says it, in order. */
class PlanTest {
    private static final Instant NOW = Instant.parse("2026-11-22T08:00:00Z");
    private static final Instance RUNNING = new Instance("p_3", "p-vm003", PowerState.RUNNING);
    private static final Instance STOPPED = new Instance("p_1", "p-vm001", PowerState.STOPPED);
    private static final RemovalMessage.Request ASKS = new RemovalMessage.Request(
            new Delivery("m1", "receipt", 1, NOW), "{}", new RemovalRequest(VmResourceId.parse(
                    "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachineScaleSets/p/"
                            + "virtualMachines/3"), "p", null, NOW, "hpcscale-delete-me on p-vm003", "done"));

    private static void says(Plan.Action action, EventKind event, List<String> subjects, String description) {
        assertEquals(event, action.event(), action.toString());
        assertEquals(subjects, action.subjects(), action.toString());
        assertEquals(description, action.description(), action.toString());
    }

    @Test
    void everyActionSaysItsEventWhatItActsOnAndWhy() {
        says(new Plan.Start(STOPPED, "p-vm001", "p", "1 queued job needs 1 more node", false, false),
                EventKind.START, List.of("p_1"), "1 queued job needs 1 more node");
        says(new Plan.Create(3, "4 queued jobs need 3 more nodes"), EventKind.CREATE, List.of(),
                "3 instances: 4 queued jobs need 3 more nodes");
        says(new Plan.DrainRequest(RUNNING, "p-vm003", "idle for 6m"), EventKind.DRAIN, List.of("p-vm003"),
                "idle for 6m");
        says(new Plan.CancelDrain("p-vm003", "queued jobs need it again"), EventKind.CANCEL_DRAIN,
                List.of("p-vm003"), "queued jobs need it again");
        says(new Plan.Stop(RUNNING, "p-vm003", "p", "drained", StopKind.DRAINED), EventKind.STOP, List.of("p_3"),
                "drained");
        says(new Plan.Stop(RUNNING, "p-vm003", "p", "no report", StopKind.BOOT_FAILURE), EventKind.BOOT_TIMEOUT,
                List.of("p_3"), "no report");
        says(new Plan.PowerDone("p-vm003", "its instance is already running"), EventKind.POWER_REQUEST_DONE,
                List.of("p-vm003"), "its instance is already running");
        says(new Plan.Acceptance(ASKS, "p_3"), EventKind.REMOVAL_ACCEPTED, List.of("p_3"),
                "asked by hpcscale-delete-me on p-vm003 at " + NOW);
        says(new Plan.Removal(RUNNING, "p-vm003", "p", "asked, drained"), EventKind.REMOVE, List.of("p_3"),
                "asked, drained");
        says(new Plan.RemovalAnswer(ASKS, EventKind.REMOVAL_DUPLICATE, "taken on already", false),
                EventKind.REMOVAL_DUPLICATE, List.of("p_3"), "taken on already");
    }

    @Test
    void aRemovalIsCarriedOutAsADeletingStop() {
        assertEquals(new Plan.Stop(RUNNING, "p-vm003", "p", "asked", StopKind.REMOVED),
                new Plan.Removal(RUNNING, "p-vm003", "p", "asked").asStop());
    }

    @Test
    void actionsAreKeptInTheOrderTheyAreCarriedOut() {
        Plan.Create create = new Plan.Create(1, "needed");
        Plan.Start start = new Plan.Start(STOPPED, "p-vm001", "p", "needed", false, false);
        Plan.Stop stop = new Plan.Stop(RUNNING, "p-vm003", "p", "drained", StopKind.DRAINED);
        Plan.DrainRequest drain = new Plan.DrainRequest(RUNNING, "p-vm003", "idle");
        Plan.CancelDrain cancel = new Plan.CancelDrain("p-vm002", "needed again");
        Plan plan = new Plan("p", List.of(create, start, stop, drain, cancel), List.of(), List.of(), 1, null,
                Demand.none(), Set.of());
        assertEquals(List.of(cancel, drain, stop, start, create), plan.actions());
        assertEquals(List.of(start), plan.starts());
        assertEquals(create, plan.create());
    }

    @Test
    void aPlanCreatesOnceAtMost() {
        assertThrows(IllegalArgumentException.class, () -> new Plan("p", List.of(new Plan.Create(1, "a"),
                new Plan.Create(2, "b")), List.of(), List.of(), 0, null, Demand.none(), Set.of()));
    }
}
